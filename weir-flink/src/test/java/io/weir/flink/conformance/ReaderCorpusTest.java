package io.weir.flink.conformance;

import io.weir.Schema;
import io.weir.UpdateSchema.Position;
import io.weir.types.DataTypes;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes the conformance corpus of the native readers (weir-rs, docs/readers.md): tables covering
 * every type, keyed and append-only tables, identity and time partitions, deletes, the sequence
 * field, logs only and logs plus bases, compaction, overwrite and expiry, the merge engines ({@link
 * MergeEngineCorpus}); and, next to each table, what Weir's Flink source returns for every retained
 * snapshot and for incremental ranges, unfiltered and with random filters. The Rust and Python
 * tests compare their output with these files exactly.
 *
 * <p>The corpus goes to the directory of the system property {@code weir.reader.corpus}, by default
 * {@code target/reader-corpus} of this module; {@code weir-rs/ci.sh} reads it from there.
 */
class ReaderCorpusTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    /** Every Weir type, with the precisions where the encoding changes. */
    private static Schema.Builder allTypes(Schema.Builder b) {
        return b.column("c_boolean", DataTypes.BOOLEAN())
                .column("c_tinyint", DataTypes.TINYINT())
                .column("c_smallint", DataTypes.SMALLINT())
                .column("c_int", DataTypes.INT())
                .column("c_bigint", DataTypes.BIGINT())
                .column("c_float", DataTypes.FLOAT())
                .column("c_double", DataTypes.DOUBLE())
                .column("c_decimal_5_2", DataTypes.DECIMAL(5, 2))
                .column("c_decimal_18_4", DataTypes.DECIMAL(18, 4))
                .column("c_decimal_19_0", DataTypes.DECIMAL(19, 0))
                .column("c_decimal_38_10", DataTypes.DECIMAL(38, 10))
                .column("c_char", DataTypes.CHAR(10))
                .column("c_varchar", DataTypes.VARCHAR(2000))
                .column("c_string", DataTypes.STRING())
                .column("c_binary", DataTypes.BINARY(10))
                .column("c_bytes", DataTypes.BYTES())
                .column("c_date", DataTypes.DATE())
                .column("c_time", DataTypes.TIME(3))
                .column("c_ts0", DataTypes.TIMESTAMP(0))
                .column("c_ts3", DataTypes.TIMESTAMP(3))
                .column("c_ts6", DataTypes.TIMESTAMP(6))
                .column("c_ts9", DataTypes.TIMESTAMP(9))
                .column("c_ltz3", DataTypes.TIMESTAMP_LTZ(3))
                .column("c_ltz6", DataTypes.TIMESTAMP_LTZ(6))
                .column("c_ltz9", DataTypes.TIMESTAMP_LTZ(9));
    }

    @Test
    void writesTheCorpus() throws Exception {
        Path root =
                Path.of(System.getProperty("weir.reader.corpus", "target/reader-corpus"))
                        .toAbsolutePath();
        deleteRecursively(root);
        Files.createDirectories(root);
        Random random = new Random(26);

        // Keyed, every type, identity partition, LZ4 logs; logs only, then logs plus bases.
        Schema keyed =
                allTypes(
                                Schema.builder()
                                        .column("id", DataTypes.INT().notNull())
                                        .column("region", DataTypes.STRING().notNull()))
                        .primaryKey("id", "region")
                        .partitionKeys("region")
                        .build();
        CorpusTable t = new CorpusTable(root, "keyed_all_types", keyed, Map.of("bucket", "2"));
        t.projection = List.of("c_string", "id", "c_boolean");
        t.filters = 2;
        t.randomCommit(random, 80, 60, 0);
        t.randomCommit(random, 80, 60, 4);
        t.compact();
        t.randomCommit(random, 60, 60, 3);
        t.randomCommit(random, 40, 60, 2);
        t.finish();

        // Append-only, every type, a nullable partition key (null partition), ZSTD logs, an
        // overwrite (rows removed) and a compaction.
        Schema appendOnly =
                allTypes(Schema.builder().column("part", DataTypes.INT()))
                        .partitionKeys("part")
                        .build();
        t = new CorpusTable(root, "append_all_types", appendOnly, Map.of("log.codec", "ZSTD"));
        t.overrides.put("part", r -> r.nextInt(4) == 0 ? null : r.nextInt(2));
        t.filters = 2;
        t.randomCommit(random, 60, 0, 0);
        t.randomCommit(random, 60, 0, 0);
        t.compact();
        t.randomCommit(random, 30, 0, 0);
        t.overwriteAll(random, 20);
        t.randomCommit(random, 20, 0, 0);
        t.finish();

        // Keyed with a DOUBLE sequence field (nulls, NaN, -0.0 among its values), 3 buckets,
        // uncompressed logs, no partitions.
        Schema seq =
                Schema.builder()
                        .column("k", DataTypes.BIGINT().notNull())
                        .column("ver", DataTypes.DOUBLE())
                        .column("payload", DataTypes.STRING())
                        .primaryKey("k")
                        .build();
        t =
                new CorpusTable(
                        root,
                        "keyed_sequence_field",
                        seq,
                        Map.of("bucket", "3", "sequence.field", "ver", "log.codec", "NONE"));
        t.filters = 2;
        for (int i = 0; i < 4; i++) {
            t.randomCommit(random, 120, 40, 4);
        }
        t.compact();
        t.randomCommit(random, 120, 40, 4);
        t.finish();

        // Keyed, time-partitioned by day in a zone; deletes.
        Schema timed =
                Schema.builder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("ts", DataTypes.TIMESTAMP_LTZ(3).notNull())
                        .column("v", DataTypes.DECIMAL(10, 2))
                        .column("dt", DataTypes.DATE())
                        .primaryKey("id", "ts")
                        .partitionKeys("dt")
                        .build();
        t =
                new CorpusTable(
                        root,
                        "keyed_time_partitions",
                        timed,
                        Map.of(
                                "bucket", "2",
                                "partition.time.column", "ts",
                                "partition.time.zone", "Asia/Shanghai"));
        t.filters = 2;
        t.randomCommit(random, 100, 50, 4);
        t.randomCommit(random, 100, 50, 4);
        t.compact();
        t.randomCommit(random, 50, 50, 3);
        t.finish();

        // Keyed, expired: the first snapshots are gone, the rest must read as before.
        Schema small =
                Schema.builder()
                        .column("id", DataTypes.INT().notNull())
                        .column("name", DataTypes.STRING())
                        .column("amount", DataTypes.DECIMAL(20, 3))
                        .primaryKey("id")
                        .build();
        t =
                new CorpusTable(
                        root,
                        "keyed_expired",
                        small,
                        Map.of("bucket", "1", "metadata.checkpoint-interval", "2"));
        for (int i = 0; i < 3; i++) {
            t.randomCommit(random, 40, 30, 3);
        }
        t.compact();
        t.randomCommit(random, 40, 30, 3);
        t.randomCommit(random, 40, 30, 3);
        t.table.expireSnapshots().retainLast(3).expireOlderThan(Long.MAX_VALUE).commit();
        t.table.refresh();
        t.finish();

        MergeEngineCorpus.write(root, random);

        // Rescaled (docs/rescale.md): one partition to 3 buckets (its files record
        // total-buckets, the others keep the option's 2), then the whole table to 3 (a new
        // schema version; the rescaled partition keeps its files); compacted; its own random,
        // so that the tables above stay as they were. Changes across a rescale are read in
        // pieces before and after it, as the Flink source reads them.
        Random rescaled = new Random(31);
        t =
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

        // Schema evolution (docs/format.md §6.9): columns added (FIRST, AFTER, last), dropped and
        // renamed, types widened (TINYINT -> SMALLINT -> INT -> BIGINT one version at a time,
        // FLOAT -> DOUBLE, DECIMAL precision within and out of the compact layout, VARCHAR and
        // VARBINARY length) and every type turned into STRING, with files of each version before
        // and after each change, some compacted in between; every snapshot reads in its own
        // version's columns. DOUBLE and FLOAT values include ones whose shortest text is not
        // JDK 17's Double.toString.
        t =
                new CorpusTable(
                        root,
                        "schema_evolved",
                        Schema.builder()
                                .column("id", DataTypes.INT().notNull())
                                .column("name", DataTypes.STRING())
                                .column("c_int", DataTypes.INT())
                                .column("c_float", DataTypes.FLOAT())
                                .column("c_decimal", DataTypes.DECIMAL(5, 2))
                                .column("c_varchar", DataTypes.VARCHAR(10))
                                .column("dropped", DataTypes.INT())
                                .column("old_name", DataTypes.BIGINT())
                                .column("s_int", DataTypes.INT())
                                .column("s_float", DataTypes.FLOAT())
                                .column("s_double", DataTypes.DOUBLE())
                                .column("s_decimal", DataTypes.DECIMAL(20, 4))
                                .column("s_date", DataTypes.DATE())
                                .column("s_ts3", DataTypes.TIMESTAMP(3))
                                .column("s_ts6", DataTypes.TIMESTAMP(6))
                                .column("s_boolean", DataTypes.BOOLEAN())
                                .column("w_tinyint", DataTypes.TINYINT())
                                .column("w_smallint", DataTypes.SMALLINT())
                                .column("w_decimal", DataTypes.DECIMAL(10, 3))
                                .column("w_varbinary", DataTypes.VARBINARY(10))
                                .column("s_tinyint", DataTypes.TINYINT())
                                .column("s_bigint", DataTypes.BIGINT())
                                .column("s_decimal_small", DataTypes.DECIMAL(5, 2))
                                .column("s_time0", DataTypes.TIME(0))
                                .column("s_time3", DataTypes.TIME(3))
                                .column("s_ts9", DataTypes.TIMESTAMP(9))
                                .column("s_ltz3", DataTypes.TIMESTAMP_LTZ(3))
                                .column("s_ltz6", DataTypes.TIMESTAMP_LTZ(6))
                                .column("s_char", DataTypes.CHAR(5))
                                .column("s_varchar", DataTypes.VARCHAR(8))
                                .column("s_binary", DataTypes.BINARY(6))
                                .column("s_bytes", DataTypes.BYTES())
                                .primaryKey("id")
                                .build(),
                        Map.of("bucket", "2"));
        t.overrides.put("s_double", r -> hardDouble(r, DataTypes.DOUBLE()));
        // Bytes that are not UTF-8 too: STRING holds them as they are; as text each maximal
        // ill-formed part reads as U+FFFD.
        t.overrides.put(
                "s_bytes",
                r -> {
                    if (r.nextInt(3) > 0) {
                        return CorpusValues.random(DataTypes.BYTES(), r);
                    }
                    byte[] b = new byte[r.nextInt(12)];
                    r.nextBytes(b);
                    return b;
                });
        t.overrides.put(
                "s_float",
                r -> {
                    Double d = hardDouble(r, DataTypes.FLOAT());
                    return d == null ? null : (float) (double) d;
                });
        t.randomCommit(random, 30, 20, 4);
        t.compact();
        t.randomCommit(random, 30, 20, 4);
        t.evolve(
                u ->
                        u.addColumn("added_first", DataTypes.INT(), null, Position.first())
                                .addColumn(
                                        "added_after",
                                        DataTypes.STRING(),
                                        null,
                                        Position.after("name"))
                                .addColumn("added_last", DataTypes.BIGINT())
                                .dropColumn("dropped")
                                .renameColumn("old_name", "new_name")
                                .updateColumnType("w_tinyint", DataTypes.SMALLINT()));
        t.randomCommit(random, 30, 20, 4);
        t.overrides.keySet().removeAll(List.of("s_double", "s_float", "s_bytes")); // now STRING
        t.evolve(
                u ->
                        u.updateColumnType("c_int", DataTypes.BIGINT())
                                .updateColumnType("c_float", DataTypes.DOUBLE())
                                .updateColumnType("c_decimal", DataTypes.DECIMAL(9, 2))
                                .updateColumnType("c_varchar", DataTypes.VARCHAR(20))
                                .updateColumnType("s_int", DataTypes.STRING())
                                .updateColumnType("s_float", DataTypes.STRING())
                                .updateColumnType("s_double", DataTypes.STRING())
                                .updateColumnType("s_decimal", DataTypes.STRING())
                                .updateColumnType("s_date", DataTypes.STRING())
                                .updateColumnType("s_ts3", DataTypes.STRING())
                                .updateColumnType("s_ts6", DataTypes.STRING())
                                .updateColumnType("s_boolean", DataTypes.STRING())
                                .updateColumnType("w_tinyint", DataTypes.INT())
                                .updateColumnType("w_smallint", DataTypes.BIGINT())
                                .updateColumnType("w_decimal", DataTypes.DECIMAL(30, 3))
                                .updateColumnType("w_varbinary", DataTypes.VARBINARY(40))
                                .updateColumnType("s_tinyint", DataTypes.STRING())
                                .updateColumnType("s_bigint", DataTypes.STRING())
                                .updateColumnType("s_decimal_small", DataTypes.STRING())
                                .updateColumnType("s_time0", DataTypes.STRING())
                                .updateColumnType("s_time3", DataTypes.STRING())
                                .updateColumnType("s_ts9", DataTypes.STRING())
                                .updateColumnType("s_ltz3", DataTypes.STRING())
                                .updateColumnType("s_ltz6", DataTypes.STRING())
                                .updateColumnType("s_char", DataTypes.STRING())
                                .updateColumnType("s_varchar", DataTypes.STRING())
                                .updateColumnType("s_binary", DataTypes.STRING())
                                .updateColumnType("s_bytes", DataTypes.STRING()));
        t.randomCommit(random, 30, 20, 4);
        t.compact();
        // Only base files of an older version: read without a merge, mapped.
        t.evolve(
                u ->
                        u.updateColumnType("c_float", DataTypes.STRING())
                                .addColumn("dropped", DataTypes.INT())
                                .updateColumnType("w_tinyint", DataTypes.BIGINT())
                                .updateColumnType("w_varbinary", DataTypes.BYTES()));
        t.randomCommit(random, 30, 20, 4);
        t.finish();

        // The same for an append-only table (rows read file by file, pruned by statistics, and
        // changes that follow the commits): a partition, an overwrite after the changes.
        t =
                new CorpusTable(
                        root,
                        "schema_evolved_append",
                        Schema.builder()
                                .column("part", DataTypes.INT())
                                .column("c_int", DataTypes.INT())
                                .column("c_float", DataTypes.FLOAT())
                                .column("s_double", DataTypes.DOUBLE())
                                .column("s_date", DataTypes.DATE())
                                .column("name", DataTypes.STRING())
                                .column("w_tinyint", DataTypes.TINYINT())
                                .column("w_decimal", DataTypes.DECIMAL(18, 2))
                                .column("w_varchar", DataTypes.VARCHAR(5))
                                .column("s_float", DataTypes.FLOAT())
                                .column("s_time", DataTypes.TIME(0))
                                .column("s_ltz", DataTypes.TIMESTAMP_LTZ(3))
                                .column("s_char", DataTypes.CHAR(3))
                                .column("s_varbinary", DataTypes.VARBINARY(12))
                                .column("s_boolean", DataTypes.BOOLEAN())
                                .partitionKeys("part")
                                .build(),
                        Map.of());
        t.overrides.put("part", r -> r.nextInt(2));
        t.overrides.put("s_double", r -> hardDouble(r, DataTypes.DOUBLE()));
        t.overrides.put(
                "s_float",
                r -> {
                    Double d = hardDouble(r, DataTypes.FLOAT());
                    return d == null ? null : (float) (double) d;
                });
        t.randomCommit(random, 40, 0, 0);
        t.compact();
        t.randomCommit(random, 40, 0, 0);
        t.overrides.keySet().removeAll(List.of("s_double", "s_float")); // now STRING
        t.evolve(
                u ->
                        u.updateColumnType("c_int", DataTypes.BIGINT())
                                .updateColumnType("c_float", DataTypes.STRING())
                                .updateColumnType("s_double", DataTypes.STRING())
                                .updateColumnType("s_date", DataTypes.STRING())
                                .dropColumn("name")
                                .addColumn("added", DataTypes.STRING(), null, Position.first())
                                .updateColumnType("w_tinyint", DataTypes.SMALLINT())
                                .updateColumnType("w_decimal", DataTypes.DECIMAL(19, 2))
                                .updateColumnType("w_varchar", DataTypes.VARCHAR(50))
                                .updateColumnType("s_float", DataTypes.STRING())
                                .updateColumnType("s_time", DataTypes.STRING())
                                .updateColumnType("s_ltz", DataTypes.STRING())
                                .updateColumnType("s_char", DataTypes.STRING())
                                .updateColumnType("s_varbinary", DataTypes.STRING())
                                .updateColumnType("s_boolean", DataTypes.STRING()));
        t.randomCommit(random, 40, 0, 0);
        t.compact();
        t.randomCommit(random, 20, 0, 0);
        t.finish();

        // Incremental compaction (docs/format.md §6.3): the newest logs merged in their place, as
        // one log or as base files plus a log of the deletes, with the sequence field; a random
        // of its own, so that the tables above stay as they were.
        Random incremental = new Random(29);
        for (String format : List.of("log", "parquet")) {
            t =
                    new CorpusTable(
                            root,
                            "keyed_incremental_" + format,
                            seq,
                            Map.of(
                                    "bucket",
                                    "1",
                                    "sequence.field",
                                    "ver",
                                    "compaction.run-format",
                                    format));
            t.filters = 1;
            t.randomCommit(incremental, 1200, 300, 0);
            t.compact();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 3; i++) {
                    t.randomCommit(incremental, 20, 300, 3);
                }
                t.compactIncrementally();
            }
            t.randomCommit(incremental, 20, 300, 3);
            t.finish();
        }

        floatPartitions(root, new Random(30));

        try (Stream<Path> tables = Files.list(root)) {
            assertThat(tables.count()).isEqualTo(11 + MergeEngineCorpus.TABLES);
        }
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
                    Double d = hardDouble(r, DataTypes.FLOAT());
                    return d == null ? null : r.nextInt(4) == 0 ? 1.1f : (float) (double) d;
                });
        t.overrides.put("d", r -> hardDouble(r, DataTypes.DOUBLE()));
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

    /**
     * DOUBLE and FLOAT values whose text (docs/format.md §6.9, the shortest decimal) is often not
     * JDK 17's Double.toString: powers of two, values near powers of ten, subnormals, random bit
     * patterns; otherwise the corpus's usual values.
     */
    private static Double hardDouble(Random r, io.weir.types.DataType type) {
        return switch (r.nextInt(5)) {
            case 4 -> null;
            case 0 -> HARD_DOUBLES[r.nextInt(HARD_DOUBLES.length)];
            case 1 ->
                    type.root() == io.weir.types.TypeRoot.FLOAT
                            ? Float.intBitsToFloat(r.nextInt())
                            : Double.longBitsToDouble(r.nextLong());
            default -> ((Number) CorpusValues.random(type.notNull(), r)).doubleValue();
        };
    }

    /** Doubles whose JDK 17 text has more digits than the shortest, and layout edges. */
    private static final double[] HARD_DOUBLES = {
        1.0E23,
        2.0E23,
        Double.MIN_VALUE,
        2.0E-3,
        9.999999999999998E-4,
        1.0E7,
        9999999.999999998,
        Double.longBitsToDouble(0x3900000000000000L), // 2^-111, a FLOAT
        Double.longBitsToDouble(0xbd30000000000000L), // -2^-44, a FLOAT
        Double.longBitsToDouble(0x43d0000000000000L), // 2^62, a FLOAT
        Double.longBitsToDouble(0x8000000020000000L), // a subnormal
        Double.longBitsToDouble(0x0360000000000000L),
        Double.longBitsToDouble(0x408216a120000000L), // a FLOAT: 578.82867431640625
        Double.longBitsToDouble(0x43bddf3b60000000L)
    };

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
