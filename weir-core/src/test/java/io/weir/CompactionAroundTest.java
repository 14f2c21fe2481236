package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.testing.Rows;
import io.weir.testing.TestStorage;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two compactions of one table at once, the second planned around the files the first rewrites
 * ({@link Compaction#around}), as an ingestion job's compaction lanes run them: the second merges
 * only runs newer than the first's inputs, both commits land in either order, and the table equals
 * the model of every upsert and delete at every step.
 */
class CompactionAroundTest {
    private static final RowType TYPE = RowType.of("k", DataTypes.INT(), "v", DataTypes.BIGINT());

    @TempDir Path dir;
    private final TestStorage storage = TestStorage.current();
    private final Map<Integer, Long> model = new TreeMap<>();

    @Test
    void theSecondCompactionMergesOnlyRunsNewerThanTheFirstsInputs() {
        Table table = create(Map.of("bucket", "1", "compaction.max-log-files", "3"));
        Random random = new Random(7);
        for (int c = 0; c < 3; c++) {
            append(table, random, 40);
        }
        Compaction whole = table.newCompaction().full();
        List<ScanTask> wholeTasks = whole.plan();
        assertThat(wholeTasks).hasSize(1);
        Set<String> inFlight = paths(wholeTasks);
        List<DataFile> wholeOutputs = whole.rewrite(wholeTasks.get(0));

        // Newer runs below the bound (keep = max-log-files - 1 = 2): nothing due around them.
        append(table, random, 40);
        append(table, random, 40);
        assertThat(table.newCompaction().around(inFlight).plan()).isEmpty();

        // A third: the two newest are due, and the size ratio takes the third (equal sizes); never
        // a file in flight.
        append(table, random, 40);
        List<DataFile> newest = newestLogs(table, 3);
        Compaction newer = table.newCompaction().around(inFlight);
        List<ScanTask> newerTasks = newer.plan();
        assertThat(newerTasks).hasSize(1);
        assertThat(paths(newerTasks)).containsExactlyInAnyOrderElementsOf(filePaths(newest));
        List<DataFile> newerOutputs = newer.rewrite(newerTasks.get(0));
        assertThat(newerOutputs)
                .allSatisfy(f -> assertThat(f.sequence()).isEqualTo(newest.get(2).sequence()));

        newer.commit(newerTasks, newerOutputs);
        assertThat(read(table)).isEqualTo(expected());
        whole.commit(wholeTasks, wholeOutputs);
        assertThat(read(table)).isEqualTo(expected());

        // The base the first wrote and the run the second merged.
        assertThat(table.currentSnapshot().files())
                .containsExactlyInAnyOrderElementsOf(concat(wholeOutputs, newerOutputs));
    }

    @Test
    void newestRunsOnlyLeavesTheBaseHoweverLargeTheChange() {
        Table table = create(Map.of("bucket", "1", "compaction.max-log-files", "3"));
        Random random = new Random(11);
        append(table, random, 20);
        table.newCompaction().full().execute();
        for (int c = 0; c < 4; c++) {
            append(table, random, 200);
        }
        DataFile base =
                table.currentSnapshot().files().stream()
                        .filter(f -> f.kind() == FileKind.BASE)
                        .findFirst()
                        .orElseThrow();
        // Deltas of far more than 200 % of the base: a usual plan rewrites the group whole.
        assertThat(table.newCompaction().plan().get(0).files()).contains(base);

        Compaction newest = table.newCompaction().newestRunsOnly();
        List<ScanTask> tasks = newest.plan();
        assertThat(tasks).hasSize(1);
        assertThat(filePaths(tasks.get(0).files()))
                .containsExactlyInAnyOrderElementsOf(filePaths(newestLogs(table, 4)));
        List<DataFile> outputs = newest.rewrite(tasks.get(0));
        newest.commit(tasks, outputs);
        assertThat(read(table)).isEqualTo(expected());
        assertThat(table.currentSnapshot().files()).contains(base).hasSize(1 + outputs.size());
    }

    @Test
    void anAppendOnlyGroupWithFilesInFlightIsNotCompacted() {
        Table table =
                Tables.create(
                        storage.io(),
                        storage.location(dir, "append"),
                        new Schema(TYPE, List.of(), List.of()),
                        Map.of("bucket", "1", "compaction.max-log-files", "2"));
        for (int c = 0; c < 4; c++) {
            try (TableWrite write = table.newWrite().create()) {
                write.write(BinaryRowWriter.toRow(TYPE, c, (long) c));
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
        }
        Set<String> oneFile = Set.of(table.currentSnapshot().files().get(0).path());
        assertThat(table.newCompaction().around(oneFile).plan()).isEmpty();
        assertThat(table.newCompaction().plan()).hasSize(1);
    }

    /**
     * Random upserts and deletes in 2 buckets; at random points a compaction (whole or incremental)
     * is rewritten but not committed, more commits land, a second compaction planned around it
     * runs, and the two commit in a random order. The table equals the model after every commit.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void randomInterleavingsKeepTheTableEqualToTheModel(long seed) {
        Table table =
                create(
                        Map.of(
                                "bucket",
                                "2",
                                "compaction.max-log-files",
                                "3",
                                "compaction.stall-runs",
                                "6"));
        Random random = new Random(seed);
        int aroundMerges = 0;
        for (int step = 0; step < 12; step++) {
            for (int c = random.nextInt(4); c > 0; c--) {
                append(table, random, 30);
            }
            Compaction first =
                    random.nextBoolean() ? table.newCompaction().full() : table.newCompaction();
            List<ScanTask> firstTasks = first.plan();
            List<DataFile> firstOutputs = new ArrayList<>();
            firstTasks.forEach(t -> firstOutputs.addAll(first.rewrite(t)));
            for (int c = 2 + random.nextInt(4); c > 0; c--) {
                append(table, random, 30);
            }
            Compaction second = table.newCompaction().around(paths(firstTasks));
            if (random.nextBoolean()) {
                second.newestRunsOnly();
            }
            List<ScanTask> secondTasks = second.plan();
            Set<String> shared = paths(secondTasks);
            shared.retainAll(paths(firstTasks));
            assertThat(shared).as("files both compactions rewrite").isEmpty();
            List<DataFile> secondOutputs = new ArrayList<>();
            secondTasks.forEach(t -> secondOutputs.addAll(second.rewrite(t)));
            aroundMerges += secondTasks.size();
            boolean secondFirst = random.nextBoolean();
            if (secondFirst) {
                commit(second, secondTasks, secondOutputs);
                assertThat(read(table)).as("step %d, second committed", step).isEqualTo(expected());
            }
            commit(first, firstTasks, firstOutputs);
            assertThat(read(table)).as("step %d, first committed", step).isEqualTo(expected());
            if (!secondFirst) {
                commit(second, secondTasks, secondOutputs);
                assertThat(read(table)).as("step %d, second committed", step).isEqualTo(expected());
            }
        }
        assertThat(aroundMerges).as("merges planned around files in flight").isGreaterThan(0);
        table.newCompaction().full().execute();
        assertThat(read(table)).isEqualTo(expected());
    }

    private static void commit(Compaction compaction, List<ScanTask> tasks, List<DataFile> out) {
        if (tasks.isEmpty()) {
            compaction.abort(out);
        } else {
            compaction.commit(tasks, out);
        }
    }

    private Table create(Map<String, String> options) {
        return Tables.create(
                storage.io(),
                storage.location(dir, "t"),
                new Schema(TYPE, List.of("k"), List.of()),
                options);
    }

    /** One commit of {@code rows} random upserts and deletes over 60 keys. */
    private void append(Table table, Random random, int rows) {
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < rows; i++) {
                int k = random.nextInt(60);
                long v = random.nextInt(1_000_000);
                boolean delete = random.nextInt(5) == 0;
                write.write(
                        BinaryRowWriter.toRow(
                                TYPE, delete ? RowKind.DELETE : RowKind.INSERT, k, v));
                if (delete) {
                    model.remove(k);
                } else {
                    model.put(k, v);
                }
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    private List<List<Object>> expected() {
        List<List<Object>> rows = new ArrayList<>();
        model.forEach((k, v) -> rows.add(List.of(k, v)));
        return rows;
    }

    private static List<List<Object>> read(Table table) {
        table.refresh();
        List<List<Object>> rows = Rows.readAll(table.newScan().rows(), TYPE, false);
        rows.sort((a, b) -> Integer.compare((Integer) a.get(0), (Integer) b.get(0)));
        return rows;
    }

    private static List<DataFile> newestLogs(Table table, int count) {
        table.refresh();
        List<DataFile> logs =
                new ArrayList<>(
                        table.currentSnapshot().files().stream()
                                .filter(f -> f.kind() == FileKind.LOG)
                                .toList());
        logs.sort((a, b) -> Long.compare(a.sequence(), b.sequence()));
        return logs.subList(logs.size() - count, logs.size());
    }

    private static Set<String> paths(List<ScanTask> tasks) {
        Set<String> paths = new HashSet<>();
        tasks.forEach(t -> paths.addAll(filePaths(t.files())));
        return paths;
    }

    private static List<DataFile> concat(List<DataFile> a, List<DataFile> b) {
        List<DataFile> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static Set<String> filePaths(List<DataFile> files) {
        Set<String> paths = new HashSet<>();
        files.forEach(f -> paths.add(f.path()));
        return paths;
    }
}
