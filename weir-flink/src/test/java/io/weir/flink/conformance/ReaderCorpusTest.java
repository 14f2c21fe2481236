package io.weir.flink.conformance;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.flink.source.WeirSource;
import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes the conformance corpus of the native readers (weir-rs, docs/readers.md): tables covering
 * every type, keyed and append-only tables, identity and time partitions, deletes, the sequence
 * field, logs only and logs plus bases, compaction, overwrite and expiry; and, next to each table,
 * what Weir's Flink source returns for every retained snapshot and for incremental ranges. The Rust
 * and Python tests compare their output with these files exactly.
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

        try (Stream<Path> tables = Files.list(root)) {
            assertThat(tables.count()).isEqualTo(5);
        }
    }

    /** A table of the corpus, its commits, and the expected reads. */
    static final class CorpusTable {
        final Table table;
        final Path dir;
        final RowType type;
        final List<Object[]> keys = new ArrayList<>();

        /** Columns of a projected change read over the whole retained range, or null. */
        List<String> projection;

        /** Values of some columns drawn from a few, so that partitions stay few. */
        final Map<String, java.util.function.Function<Random, Object>> overrides =
                new java.util.HashMap<>();

        CorpusTable(Path root, String name, Schema schema, Map<String, String> options) {
            this.dir = root.resolve(name);
            this.table = Tables.create(dir.resolve("table").toString(), schema, options);
            this.type = schema.rowType();
        }

        /**
         * Commits {@code count} random rows; in keyed tables keys are drawn from {@code keySpace}
         * earlier keys or new ones, and one row in {@code deleteEvery} is a delete (or a -U).
         */
        void randomCommit(Random r, int count, int keySpace, int deleteEvery) {
            int[] keyPositions = table.schema().primaryKeyPositions();
            try (TableWrite write = table.newWrite().create()) {
                for (int i = 0; i < count; i++) {
                    Object[] values = new Object[type.size()];
                    randomValues(values, r);
                    RowKind kind = RowKind.INSERT;
                    if (keyPositions.length > 0) {
                        if (!keys.isEmpty() && r.nextInt(3) > 0) {
                            Object[] key = keys.get(r.nextInt(Math.min(keys.size(), keySpace)));
                            for (int k = 0; k < keyPositions.length; k++) {
                                values[keyPositions[k]] = key[k];
                            }
                        } else {
                            Object[] key = new Object[keyPositions.length];
                            for (int k = 0; k < keyPositions.length; k++) {
                                DataType kt = type.type(keyPositions[k]);
                                key[k] = keyValue(kt, r);
                                values[keyPositions[k]] = key[k];
                            }
                            keys.add(key);
                        }
                        if (deleteEvery > 0 && r.nextInt(deleteEvery) == 0) {
                            kind = r.nextBoolean() ? RowKind.DELETE : RowKind.UPDATE_BEFORE;
                        } else if (r.nextInt(3) == 0) {
                            kind = RowKind.UPDATE_AFTER;
                        }
                    }
                    write.write(BinaryRowWriter.toRow(type, kind, values));
                }
                List<DataFile> files = write.prepareCommit();
                table.newAppend().addFiles(files).commit();
            }
            table.refresh();
        }

        private void randomValues(Object[] values, Random r) {
            for (int f = 0; f < type.size(); f++) {
                var override = overrides.get(type.field(f).name());
                values[f] =
                        override != null ? override.apply(r) : CorpusValues.random(type.type(f), r);
            }
        }

        private Object keyValue(DataType kt, Random r) {
            return switch (kt.root()) {
                case INT -> r.nextInt(1000);
                case BIGINT -> (long) r.nextInt(1000);
                case VARCHAR -> new String[] {"eu", "us", "a b/ü"}[r.nextInt(3)];
                case TIMESTAMP_LTZ ->
                        io.weir.data.Timestamp.ofMillis(
                                1_714_500_000_000L + r.nextInt(3) * 86_400_000L + r.nextInt(1000));
                default -> CorpusValues.random(kt, r);
            };
        }

        void compact() {
            table.newCompaction().full().execute();
            table.refresh();
        }

        void overwriteAll(Random r, int count) {
            try (TableWrite write = table.newWrite().create()) {
                for (int i = 0; i < count; i++) {
                    Object[] values = new Object[type.size()];
                    randomValues(values, r);
                    write.write(BinaryRowWriter.toRow(type, values));
                }
                table.newOverwrite().overwriteAll().addFiles(write.prepareCommit()).commit();
            }
            table.refresh();
        }

        /**
         * Writes expected/: for every retained snapshot, the Flink source's rows; for every pair of
         * consecutive retained commits and for the whole retained range, its changes.
         */
        void finish() throws Exception {
            Path expected = dir.resolve("expected");
            Files.createDirectories(expected);
            long latest = table.currentSnapshot().id();
            long first = latest;
            while (first > 1 && retained(first - 1)) {
                first--;
            }
            StringBuilder manifest = new StringBuilder("{\"snapshots\": [");
            for (long s = first; s <= latest; s++) {
                List<String> rows =
                        read(WeirSource.builder().location(location()).snapshotId(s).build());
                assertThat(rows).isNotEmpty();
                write(expected.resolve("snapshot-" + s + ".jsonl"), rows);
                manifest.append(s == first ? "" : ", ").append(s);
            }
            manifest.append("], \"changes\": [");
            List<long[]> ranges = new ArrayList<>();
            for (long s = first; s < latest; s++) {
                ranges.add(new long[] {s, s + 1});
            }
            ranges.add(new long[] {first, latest});
            if (first == 1) {
                ranges.add(new long[] {0, latest}); // from the empty table
            }
            for (int i = 0; i < ranges.size(); i++) {
                long[] range = ranges.get(i);
                List<String> rows =
                        read(
                                WeirSource.builder()
                                        .location(location())
                                        .incrementalBetween(range[0], range[1])
                                        .build());
                write(expected.resolve("changes-" + range[0] + "-" + range[1] + ".jsonl"), rows);
                manifest.append(i == 0 ? "" : ", ")
                        .append("[")
                        .append(range[0])
                        .append(", ")
                        .append(range[1])
                        .append("]");
            }
            manifest.append("]");
            if (projection != null) {
                // A projected change read: -U/+U only where a selected column changed.
                RowType projected = type.project(positions(projection));
                List<String> rows =
                        read(
                                WeirSource.builder()
                                        .location(location())
                                        .select(projection)
                                        .incrementalBetween(first, latest)
                                        .build(),
                                projected);
                write(
                        expected.resolve("projected-changes-" + first + "-" + latest + ".jsonl"),
                        rows);
                manifest.append(", \"projected_changes\": {\"columns\": [");
                for (int i = 0; i < projection.size(); i++) {
                    manifest.append(i == 0 ? "\"" : ", \"").append(projection.get(i)).append('"');
                }
                manifest.append("], \"range\": [")
                        .append(first)
                        .append(", ")
                        .append(latest)
                        .append("]}");
            }
            manifest.append("}\n");
            Files.writeString(expected.resolve("manifest.json"), manifest);
        }

        private boolean retained(long commitId) {
            try {
                table.snapshot(commitId);
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        }

        String location() {
            return dir.resolve("table").toString();
        }

        private int[] positions(List<String> names) {
            return names.stream().mapToInt(type::indexOf).toArray();
        }

        private List<String> read(WeirSource source) throws Exception {
            return read(source, type);
        }

        private List<String> read(WeirSource source, RowType rowType) throws Exception {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setRuntimeMode(RuntimeExecutionMode.BATCH);
            env.setParallelism(2);
            List<String> rows = new ArrayList<>();
            try (CloseableIterator<RowData> it =
                    env.fromSource(source, WatermarkStrategy.noWatermarks(), "weir")
                            .executeAndCollect()) {
                it.forEachRemaining(r -> rows.add(ConformanceRows.render(r, rowType)));
            }
            rows.sort(Comparator.naturalOrder());
            return rows;
        }

        private static void write(Path file, List<String> rows) throws IOException {
            Files.write(file, rows, StandardCharsets.UTF_8);
        }
    }

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
