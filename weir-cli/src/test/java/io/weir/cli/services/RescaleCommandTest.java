package io.weir.cli.services;

import io.weir.Tables;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code weir rescale}: rewrites a table into another number of buckets. */
class RescaleCommandTest {
    @TempDir Path dir;

    @Test
    void rescalesAndKeepsTheRows() {
        ServiceTable t = new ServiceTable(dir, 5);
        for (int i = 0; i < 3; i++) {
            t.commit(200);
        }
        List<List<Object>> before = t.rows();
        Cli cli = Cli.run("rescale", "--table", t.location, "--buckets", "7");
        assertThat(cli.exit()).as(cli.err()).isZero();
        assertThat(cli.out()).contains("Rescaled table " + t.location + " from ");
        assertThat(cli.out()).contains(" to 7 buckets: commit 4");
        t.table.refresh();
        assertThat(t.rows()).isEqualTo(before);
        assertThat(Tables.load(t.location).options().bucket()).isEqualTo(7);
        assertThat(t.groups().keySet()).allMatch(g -> g.bucket() < 7);

        Cli again = Cli.run("rescale", "--table", t.location, "--buckets", "7");
        assertThat(again.out()).contains("has 7 buckets already: nothing to do");
    }

    @Test
    void anInvalidBucketCountIsOneError() {
        ServiceTable t = new ServiceTable(dir, 6);
        t.commit(10);
        Cli cli = Cli.run("rescale", "--table", t.location, "--buckets", "0");
        assertThat(cli.exit()).isNotZero();
        assertThat(cli.err())
                .contains(
                        "Cannot rescale table "
                                + t.location
                                + " to 0 buckets: the number of buckets must be between 1 and"
                                + " 32768");
    }
}
