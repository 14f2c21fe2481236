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
import io.weir.types.RowType;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.CloseableIterator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** A table of the corpus, its commits, and the expected reads. */
final class CorpusTable {
    final Table table;
    final Path dir;

    /** The row type of the table's current schema version (new rows are written with it). */
    RowType type;

    final List<Object[]> keys = new ArrayList<>();

    /**
     * Whether to record the changes of every pair of consecutive commits (else only of the whole
     * retained range and from commit 0): each is one more Flink job in the default suite.
     */
    boolean pairwiseChanges = true;

    /** Every row written, for filter literals. */
    final List<Object[]> written = new ArrayList<>();

    /** How many random filters (CorpusFilters) to read the first and latest snapshot with. */
    int filters;

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
        randomCommit(r, count, keySpace, deleteEvery, files -> files);
    }

    /** As above, with the files changed by {@code beforeCommit} before they are committed. */
    void randomCommit(
            Random r,
            int count,
            int keySpace,
            int deleteEvery,
            java.util.function.UnaryOperator<List<DataFile>> beforeCommit) {
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
                            var override = overrides.get(type.field(keyPositions[k]).name());
                            key[k] = override != null ? override.apply(r) : keyValue(kt, r);
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
                written.add(values);
            }
            List<DataFile> files = beforeCommit.apply(write.prepareCommit());
            table.newAppend().addFiles(files).commit();
        }
        table.refresh();
    }

    private void randomValues(Object[] values, Random r) {
        for (int f = 0; f < type.size(); f++) {
            var override = overrides.get(type.field(f).name());
            values[f] = override != null ? override.apply(r) : CorpusValues.random(type.type(f), r);
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

    /**
     * The files of a commit with the first partition key's texts renamed ({@code text -> other
     * text}), as an older writer named them.
     */
    static List<DataFile> renamePartitions(List<DataFile> files, Map<String, String> texts) {
        List<DataFile> out = new ArrayList<>();
        for (DataFile f : files) {
            List<String> values = new ArrayList<>(f.partition().values());
            String text = texts.get(values.get(0));
            if (text != null) {
                values.set(0, text);
            }
            out.add(
                    new DataFile(
                            f.path(),
                            f.kind(),
                            new io.weir.Partition(values),
                            f.bucket(),
                            f.recordCount(),
                            f.sizeInBytes(),
                            f.sequence(),
                            f.schemaId(),
                            f.minKey(),
                            f.maxKey(),
                            f.columnStats()));
        }
        return out;
    }

    /** Puts a new schema version in force (docs/format.md §6.9); later rows are written with it. */
    void evolve(java.util.function.UnaryOperator<io.weir.UpdateSchema> change) {
        change.apply(table.updateSchema()).commit();
        table.refresh();
        type = table.schema().rowType();
    }

    void compact() {
        table.newCompaction().full().execute();
        table.refresh();
    }

    /**
     * Compacts the groups with 2 logs or more incrementally; fails unless some group had only its
     * newest runs merged (files older than the outputs stay).
     */
    void compactIncrementally() {
        long before = table.currentSnapshot().id();
        if (table.newCompaction().minLogFiles(2).execute() == null) {
            throw new AssertionError("nothing to compact in " + table.location());
        }
        table.refresh();
        long merged = table.commit(before + 1).added().get(0).sequence();
        if (table.currentSnapshot().files().stream().noneMatch(f -> f.sequence() < merged)) {
            throw new AssertionError(
                    "a whole-group compaction in "
                            + table.location()
                            + ": "
                            + table.commit(before + 1)
                            + " "
                            + table.currentSnapshot().files());
        }
    }

    void overwriteAll(Random r, int count) {
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < count; i++) {
                Object[] values = new Object[type.size()];
                randomValues(values, r);
                write.write(BinaryRowWriter.toRow(type, values));
                written.add(values);
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
            // A snapshot reads in the columns of its own schema version.
            int version = table.snapshot(s).schemaId();
            List<String> rows =
                    read(
                            WeirSource.builder()
                                    .location(location())
                                    .snapshotId(s)
                                    .schemaId(version)
                                    .build(),
                            table.metadata(version).schema().rowType());
            assertThat(rows).isNotEmpty();
            write(expected.resolve("snapshot-" + s + ".jsonl"), rows);
            manifest.append(s == first ? "" : ", ").append(s);
        }
        manifest.append("], \"changes\": [");
        List<long[]> ranges = new ArrayList<>();
        for (long s = first; s < latest && pairwiseChanges; s++) {
            ranges.add(new long[] {s, s + 1});
        }
        ranges.add(new long[] {first, latest});
        if (first == 1) {
            ranges.add(new long[] {0, latest}); // from the empty table
        }
        for (int i = 0; i < ranges.size(); i++) {
            long[] range = ranges.get(i);
            // Changes read in the columns of the end's schema version.
            int version = table.snapshot(range[1]).schemaId();
            List<String> rows =
                    read(
                            WeirSource.builder()
                                    .location(location())
                                    .incrementalBetween(range[0], range[1])
                                    .schemaId(version)
                                    .build(),
                            table.metadata(version).schema().rowType());
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
            write(expected.resolve("projected-changes-" + first + "-" + latest + ".jsonl"), rows);
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
        if (filters > 0) {
            manifest.append(", \"filters\": [");
            CorpusFilters random =
                    new CorpusFilters(
                            table.schema(), written, dir.getFileName().toString().hashCode());
            for (int i = 0; i < filters; i++) {
                CorpusFilters.Filter f = random.next();
                long[] snapshots =
                        first == latest ? new long[] {latest} : new long[] {first, latest};
                for (long s : snapshots) {
                    write(
                            expected.resolve("filter-" + i + "-snapshot-" + s + ".jsonl"),
                            read(
                                    WeirSource.builder()
                                            .location(location())
                                            .snapshotId(s)
                                            .filter(f.expression())
                                            .build()));
                }
                write(
                        expected.resolve(
                                "filter-" + i + "-changes-" + first + "-" + latest + ".jsonl"),
                        read(
                                WeirSource.builder()
                                        .location(location())
                                        .incrementalBetween(first, latest)
                                        .filter(f.expression())
                                        .build()));
                manifest.append(i == 0 ? "" : ", ")
                        .append("{\"expr\": ")
                        .append(f.json())
                        .append(", \"snapshots\": [")
                        .append(snapshots[0])
                        .append(snapshots.length > 1 ? ", " + snapshots[1] : "")
                        .append("], \"changes\": [[")
                        .append(first)
                        .append(", ")
                        .append(latest)
                        .append("]]}");
            }
            manifest.append("]");
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
