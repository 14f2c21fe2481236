package io.weir.cli.services;

import io.weir.BucketLayout;
import io.weir.DataFile;
import io.weir.Table;
import io.weir.Tables;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code weir rescale}: rewrites a table, or one partition, into another number of buckets. */
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

    @Test
    void rescalesOnePartitionAndBackToTheTableOption() {
        ServiceTable t = new ServiceTable(dir, 7);
        for (int i = 0; i < 3; i++) {
            t.commit(200);
        }
        List<List<Object>> before = t.rows();
        List<DataFile> day1 = filesOf("2024-01-01");
        Cli cli =
                Cli.run(
                        "rescale",
                        "--table",
                        t.location,
                        "--buckets",
                        "5",
                        "--partition",
                        "dt=2024-01-02");
        assertThat(cli.exit()).as(cli.err()).isZero();
        assertThat(cli.out())
                .isEqualTo(
                        "Rescaled partition dt=2024-01-02 of table "
                                + t.location
                                + " from 2 to 5 buckets: commit 4"
                                + System.lineSeparator());
        assertThat(t.rows()).isEqualTo(before);
        assertThat(t.rowsAt(3)).isEqualTo(before);
        Table table = Tables.load(t.location);
        assertThat(table.options().bucket()).as("the option stays").isEqualTo(2);
        assertThat(filesOf("2024-01-01")).isEqualTo(day1);
        assertThat(filesOf("2024-01-02"))
                .isNotEmpty()
                .allMatch(f -> BucketLayout.of(f, table::metadata) == 5 && f.bucket() < 5);

        // Without --buckets, back to the table's option (as Paimon's bucket_num default).
        Cli back = Cli.run("rescale", "--table", t.location, "--partition", "dt=2024-01-02");
        assertThat(back.exit()).as(back.err()).isZero();
        assertThat(back.out()).contains("from 5 to 2 buckets: commit 5");
        assertThat(filesOf("2024-01-02")).allMatch(f -> f.totalBuckets() == 0);
        assertThat(t.rows()).isEqualTo(before);
        Cli again = Cli.run("rescale", "--table", t.location, "--partition", "dt=2024-01-02");
        assertThat(again.out())
                .isEqualTo(
                        "Partition dt=2024-01-02 of table "
                                + t.location
                                + " has 2 buckets already: nothing to do"
                                + System.lineSeparator());
    }

    private List<DataFile> filesOf(String day) {
        return Tables.load(dir.resolve("t").toString()).currentSnapshot().files().stream()
                .filter(f -> f.partition().values().get(0).equals(day))
                .toList();
    }

    @Test
    void aBadPartitionIsOneErrorNamingTableAndArgument() {
        ServiceTable t = new ServiceTable(dir, 8);
        t.commit(10);
        Cli missing =
                Cli.run(
                        "rescale",
                        "--table",
                        t.location,
                        "--buckets",
                        "3",
                        "--partition",
                        "dt=2030-01-01");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err())
                .isEqualTo(
                        "Error: Cannot rescale partition dt=2030-01-01 of table "
                                + t.location
                                + ": the table has no such partition as of commit 1 (partition"
                                + " values are canonical texts, e.g. dt=2024-01-01)"
                                + System.lineSeparator());
        Cli malformed =
                Cli.run("rescale", "--table", t.location, "--buckets", "3", "--partition", "dt");
        assertThat(malformed.exit()).isEqualTo(1);
        assertThat(malformed.err())
                .contains(
                        "Cannot rescale table "
                                + t.location
                                + ": invalid partition 'dt': expected key=value[,key=value...],"
                                + " e.g. dt=2024-01-01");
        Cli neither = Cli.run("rescale", "--table", t.location);
        assertThat(neither.exit()).isEqualTo(1);
        assertThat(neither.err())
                .contains(
                        "Cannot rescale table "
                                + t.location
                                + ": missing option --buckets, the new number of buckets (it may"
                                + " be left out only with --partition, which then takes the"
                                + " table's bucket option)");
        assertThat(Tables.load(t.location).currentSnapshot().id()).isEqualTo(1);
    }
}
