package io.weir.flink.conformance;

import io.weir.Schema;
import io.weir.types.DataTypes;

import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The rescaled table of the corpus ({@link ReaderCorpus}, docs/rescale.md). */
class ReaderCorpusRescaleTest {
    @RegisterExtension static final MiniClusterExtension CLUSTER = ReaderCorpus.cluster();

    @Test
    void writesARescaledTable() throws Exception {
        ReaderCorpus.write(1, ReaderCorpusRescaleTest::write);
    }

    private static void write(Path root) throws Exception {
        // Rescaled (docs/rescale.md): one partition to 3 buckets (its files record
        // total-buckets, the others keep the option's 2), then the whole table to 3 (a new
        // schema version; the rescaled partition keeps its files); compacted; a random of its own
        // (ReaderCorpusTest). Changes across a rescale are read in
        // pieces before and after it, as the Flink source reads them.
        Random rescaled = new Random(31);
        CorpusTable t =
                new CorpusTable(
                        root,
                        "keyed_partition_rescaled",
                        Schema.builder()
                                .column("id", DataTypes.INT().notNull())
                                .column("region", DataTypes.STRING().notNull())
                                .column("v", DataTypes.BIGINT())
                                .column("name", DataTypes.STRING())
                                .primaryKey("id", "region")
                                .partitionKeys("region")
                                .build(),
                        Map.of("bucket", "2"));
        t.filters = 1;
        t.randomCommit(rescaled, 150, 100, 4);
        t.randomCommit(rescaled, 150, 100, 4);
        t.table.newRescale().partition("region=us").buckets(3).commit();
        t.table.refresh();
        assertThat(t.table.currentSnapshot().files())
                .anyMatch(f -> f.totalBuckets() == 3)
                .anyMatch(f -> f.totalBuckets() == 0);
        t.table.newRescale().buckets(3).commit();
        t.table.refresh();
        t.randomCommit(rescaled, 100, 100, 4);
        t.compact();
        t.randomCommit(rescaled, 60, 100, 3);
        t.finish();
    }
}
