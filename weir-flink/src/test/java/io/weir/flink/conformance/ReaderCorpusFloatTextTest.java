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

/** The FLOAT/DOUBLE texts of the corpus ({@link ReaderCorpus}). */
class ReaderCorpusFloatTextTest {
    @RegisterExtension static final MiniClusterExtension CLUSTER = ReaderCorpus.cluster();

    @Test
    void writesATablePartitionedByDoubles() throws Exception {
        ReaderCorpus.write(1, root -> floatPartitions(root, new Random(30)));
    }

    /**
     * Canonical FLOAT/DOUBLE texts (docs/format.md §2.3, issue 26): a keyed table partitioned by a
     * DOUBLE whose values have texts JDK 17 wrote otherwise (1.0E23, 2.0E-3, 4.9E-324, -0.0 and 0.0
     * as one partition, Infinity), with FLOAT and DOUBLE columns of such values, compacted so that
     * base files carry their statistics, read with filters that prune by partition and statistics.
     * Its first commit names the 1.0E23 partition as JDK 17 did, {@code 9.999999999999999E22}:
     * later writes of that value land in it (one partition per value).
     */
    private static void floatPartitions(Path root, Random random) throws Exception {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.INT().notNull())
                        .column("p", DataTypes.DOUBLE().notNull())
                        .column("f", DataTypes.FLOAT())
                        .column("d", DataTypes.DOUBLE())
                        .column("s", DataTypes.STRING())
                        .primaryKey("id", "p")
                        .partitionKeys("p")
                        .build();
        CorpusTable t =
                new CorpusTable(root, "keyed_float_partitions", schema, Map.of("bucket", "2"));
        double[] partitions = {1.0E23, 2.0E-3, Double.MIN_VALUE, -0.0, 0.0, 1.0 / 0, -1.5};
        t.overrides.put("p", r -> partitions[r.nextInt(partitions.length)]);
        t.overrides.put(
                "f",
                r -> {
                    Double d = ReaderCorpus.hardDouble(r, DataTypes.FLOAT());
                    return d == null ? null : r.nextInt(4) == 0 ? 1.1f : (float) (double) d;
                });
        t.overrides.put("d", r -> ReaderCorpus.hardDouble(r, DataTypes.DOUBLE()));
        t.filters = 4;
        t.randomCommit(
                random,
                40,
                40,
                0,
                files ->
                        CorpusTable.renamePartitions(
                                files, Map.of("1.0E23", "9.999999999999999E22")));
        t.randomCommit(random, 60, 60, 4);
        t.compact();
        t.randomCommit(random, 40, 60, 4);
        t.finish();
        assertThat(
                        t.table.currentSnapshot().fileGroups().keySet().stream()
                                .map(g -> g.partition().values().get(0))
                                .distinct()
                                .sorted())
                .as("one partition per value, the first commit's texts kept")
                .containsExactly(
                        "-1.5", "0.0", "0.002", "4.9E-324", "9.999999999999999E22", "Infinity");
    }
}
