package io.weir;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.expressions.Expression;
import io.weir.expressions.Expressions;
import io.weir.testing.ModelSeeds;
import io.weir.testing.Rows;
import io.weir.testing.TestStorage;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random upserts and deletes over several commits, partitions and buckets, with compactions and
 * overwrites in between, checked against an independent model (a map from key to row per commit):
 * every snapshot, time travel to every commit, and incremental reads between commit pairs.
 */
class TableModelTest {
    private static final RowType TYPE =
            RowType.of(
                    "id", DataTypes.BIGINT(),
                    "dt", DataTypes.STRING(),
                    "name", DataTypes.STRING(),
                    "v", DataTypes.INT(),
                    "seq", DataTypes.BIGINT());
    private static final String[] DAYS = {"2024-01-01", "2024-01-02", "2024-01-03"};

    @TempDir Path dir;

    /** The model: per commit id, the table's rows by key (id, dt). */
    private final List<Map<List<Object>, List<Object>>> history = new ArrayList<>();

    /**
     * With a sequence field, a delete's tombstone (key to its sequence value) beats older records
     * until compaction folds it away.
     */
    private final Map<List<Object>, Long> tombstones = new HashMap<>();

    @ParameterizedTest(name = "seed {0}")
    @ModelSeeds({1, 2, 3})
    void latestWins(int seed) {
        run(seed, false);
    }

    @ParameterizedTest(name = "seed {0}")
    @ModelSeeds({4, 5})
    void greatestSequenceFieldWins(int seed) {
        run(seed, true);
    }

    private void run(int seed, boolean useSequenceField) {
        Random random = new Random(seed);
        Map<String, String> options = new HashMap<>();
        options.put("bucket", "3");
        options.put("page-size", "4 kb");
        options.put("log.block-size", "4 kb");
        options.put("target-file-size", "1 mb");
        options.put("log.codec", random.nextBoolean() ? "lz4" : "zstd");
        // Mostly merges of newest runs, rarely a base rewrite (a due group has about 2 runs).
        options.put("compaction.max-size-amplification-percent", "1000");
        options.put("compaction.run-format", seed % 2 == 0 ? "log" : "parquet");
        if (useSequenceField) {
            options.put("sequence.field", "seq");
        }
        Schema schema = new Schema(TYPE, List.of("id", "dt"), List.of("dt"));
        TestStorage storage = TestStorage.current();
        Table table = Tables.create(storage.io(), storage.location(dir, "t"), schema, options);
        history.add(Map.of());
        Map<List<Object>, List<Object>> model = new TreeMap<>(KEY_ORDER);
        int commits = 25;
        for (int c = 0; c < commits; c++) {
            // Commits 6 and 12 are always an overwrite and a compaction; the rest are random.
            int action = c == 6 ? 9 : c == 12 ? 8 : random.nextInt(10);
            if (action < 7 || c == 0) {
                // A small write buffer makes most commits span several flushes (spills).
                try (TableWrite write = table.newWrite().writeBufferSize(32 << 10).create()) {
                    int ops = random.nextInt(600);
                    for (int i = 0; i < ops; i++) {
                        writeRandom(write, random, model, useSequenceField);
                    }
                    List<DataFile> files = write.prepareCommit();
                    table.newAppend().addFiles(files).identity("model-writer", c).commit();
                }
            } else if (action < 9) {
                Compaction compaction = table.newCompaction();
                if (random.nextBoolean()) {
                    compaction.full();
                } else {
                    compaction.minLogFiles(2); // incremental: often only the newest runs
                }
                // Only a group rewritten whole loses its tombstones: a merge of its newest runs
                // keeps them (as log records), so they still hide the older runs.
                Set<FileGroupId> compacted = new HashSet<>();
                Set<FileGroupId> whole = new HashSet<>();
                List<ScanTask> planned = compaction.plan();
                Map<FileGroupId, List<DataFile>> groups = table.currentSnapshot().fileGroups();
                for (ScanTask t : planned) {
                    compacted.add(t.fileGroup());
                    if (t.files().size() == groups.get(t.fileGroup()).size()) {
                        whole.add(t.fileGroup());
                    }
                }
                if (compaction.fileGroups(compacted::contains).execute() == null) {
                    continue; // nothing to compact: no commit
                }
                tombstones.keySet().removeIf(k -> whole.contains(fileGroup(k)));
            } else {
                overwritePartition(table, random, model);
            }
            table.refresh();
            assertThat(table.currentSnapshot().id()).isEqualTo(history.size());
            history.add(copy(model));
            assertThat(read(table.newScan()))
                    .as("commit %d", history.size() - 1)
                    .isEqualTo(rows(model));
            // Projections, also of no column (COUNT(*)): groups that are one base file are read
            // column by column, the others merged.
            TableScan projected = table.newScan().select("v", "id");
            assertThat(sortedByString(Rows.readAll(projected.rows(), projected.readType(), false)))
                    .as("v, id at commit %d", history.size() - 1)
                    .isEqualTo(
                            sortedByString(
                                    model.values().stream()
                                            .map(r -> Arrays.asList(r.get(3), r.get(0)))
                                            .toList()));
            long count = 0;
            try (RowReader reader = table.newScan().select(List.of()).rows()) {
                while (reader.next()) {
                    assertThat(reader.row().arity()).isZero();
                    count++;
                }
            }
            assertThat(count).as("count at commit %d", history.size() - 1).isEqualTo(model.size());
            assertThat(table.newScan().count())
                    .as("count() at commit %d", history.size() - 1)
                    .isEqualTo(model.size());
        }

        // The run exercised what it claims to: compactions, overwrites, and spills (a commit
        // with several log files for one file group).
        Map<CommitKind, Integer> kinds = new HashMap<>();
        int maxFilesPerGroup = 0;
        for (int id = 1; id < history.size(); id++) {
            Commit commit = table.commit(id);
            kinds.merge(commit.kind(), 1, Integer::sum);
            Map<FileGroupId, Integer> perGroup = new HashMap<>();
            commit.added().forEach(f -> perGroup.merge(f.fileGroup(), 1, Integer::sum));
            maxFilesPerGroup =
                    Math.max(
                            maxFilesPerGroup,
                            perGroup.values().stream().max(Integer::compare).orElse(0));
        }
        if (ModelSeeds.Provider.named(seed)) {
            assertThat(kinds)
                    .containsKeys(CommitKind.APPEND, CommitKind.COMPACT, CommitKind.OVERWRITE);
            assertThat(maxFilesPerGroup).isGreaterThan(1);
        }

        // Time travel to every commit, by id and by timestamp.
        for (int id = 0; id < history.size(); id++) {
            assertThat(read(table.newScan().useSnapshot(id)))
                    .as("as of commit %d", id)
                    .isEqualTo(rows(history.get(id)));
            if (id > 0) {
                Commit commit = table.commit(id);
                Snapshot asOf = table.snapshotAsOf(commit.timestampMillis());
                assertThat(asOf.id()).isGreaterThanOrEqualTo(id);
                assertThat(table.commit(asOf.id()).timestampMillis())
                        .isEqualTo(commit.timestampMillis());
            }
        }

        // A projection and a filter on a non-key column agree with the model.
        Expression filter = Expressions.greaterThan("v", 500);
        List<List<Object>> expected = new ArrayList<>();
        for (List<Object> row : model.values()) {
            if (row.get(3) != null && (Integer) row.get(3) > 500) {
                expected.add(List.of(row.get(2) == null ? "<null>" : row.get(2), row.get(0)));
            }
        }
        List<List<Object>> actual = new ArrayList<>();
        for (List<Object> row :
                Rows.readAll(
                        table.newScan().select("name", "id").filter(filter).rows(),
                        table.newScan().select("name", "id").readType(),
                        false)) {
            actual.add(List.of(row.get(0) == null ? "<null>" : row.get(0), row.get(1)));
        }
        assertThat(sortedByString(actual)).isEqualTo(sortedByString(expected));
        assertThat(table.newScan().filter(filter).count()).isEqualTo(expected.size());

        // Incremental reads between pairs of commits equal the model's net changes.
        for (int i = 0; i < 40; i++) {
            int a = random.nextInt(history.size());
            int b = a + random.nextInt(history.size() - a);
            List<List<Object>> changes =
                    Rows.readAll(table.newIncrementalScan().between(a, b).rows(), TYPE, true);
            assertThat(sortedByString(changes))
                    .as("changes (%d, %d]", a, b)
                    .isEqualTo(sortedByString(diff(history.get(a), history.get(b))));
        }
    }

    private void writeRandom(
            TableWrite write,
            Random random,
            Map<List<Object>, List<Object>> model,
            boolean useSeq) {
        long id = random.nextInt(300);
        String dt = DAYS[random.nextInt(DAYS.length)];
        List<Object> key = List.of(id, dt);
        int op = random.nextInt(10);
        long seq = random.nextInt(50);
        String name =
                random.nextInt(8) == 0
                        ? null
                        : "n".repeat(random.nextInt(30)) + random.nextInt(1000);
        Integer v = random.nextInt(8) == 0 ? null : random.nextInt(1000);
        RowKind kind =
                op < 6
                        ? RowKind.INSERT
                        : op < 8
                                ? RowKind.UPDATE_AFTER
                                : op < 9 ? RowKind.DELETE : RowKind.UPDATE_BEFORE;
        write.write(BinaryRowWriter.toRow(TYPE, kind, id, dt, name, v, seq));
        List<Object> current = model.get(key);
        if (useSeq && current != null && (Long) current.get(4) > seq) {
            return; // an older record loses
        }
        Long tombstone = tombstones.get(key);
        if (useSeq && current == null && tombstone != null && tombstone > seq) {
            return; // a delete with a greater sequence value wins until compacted away
        }
        // A -U retracts its key as a -D does (a filter after an updating aggregate sends the -U
        // of a key whose +U it dropped).
        if (kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE) {
            model.remove(key);
            if (useSeq) {
                tombstones.put(key, seq);
            }
        } else {
            model.put(key, Arrays.asList(id, dt, name, v, seq));
            tombstones.remove(key);
        }
    }

    private void overwritePartition(
            Table table, Random random, Map<List<Object>, List<Object>> model) {
        String dt = DAYS[random.nextInt(DAYS.length)];
        model.keySet().removeIf(k -> k.get(1).equals(dt));
        tombstones.keySet().removeIf(k -> k.get(1).equals(dt));
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < 50; i++) {
                long id = random.nextInt(300);
                List<Object> row = Arrays.asList(id, dt, "over" + i, i, 0L);
                write.write(BinaryRowWriter.toRow(TYPE, id, dt, "over" + i, i, 0L));
                model.put(List.of(id, dt), row);
            }
            table.newOverwrite()
                    .overwritePartition(Partition.of(dt))
                    .addFiles(write.prepareCommit())
                    .commit();
        }
    }

    /** The file group of a key, computed as the writer does (docs/format.md: key hash). */
    private static FileGroupId fileGroup(List<Object> key) {
        BinaryRow row = BinaryRowWriter.toRow(TYPE, key.get(0), key.get(1), null, null, null);
        return new FileGroupId(Partition.of((String) key.get(1)), KEY.bucket(row, 3));
    }

    private static final KeyFields KEY = KeyFields.of(TYPE, new int[] {0, 1});

    private static List<List<Object>> read(TableScan scan) {
        List<List<Object>> rows = Rows.readAll(scan.rows(), TYPE, false);
        rows.sort(ROW_ORDER);
        return rows;
    }

    private static List<List<Object>> rows(Map<List<Object>, List<Object>> model) {
        List<List<Object>> rows = new ArrayList<>(model.values());
        rows.sort(ROW_ORDER);
        return rows;
    }

    private static List<List<Object>> diff(
            Map<List<Object>, List<Object>> before, Map<List<Object>, List<Object>> after) {
        List<List<Object>> changes = new ArrayList<>();
        for (Map.Entry<List<Object>, List<Object>> e : before.entrySet()) {
            List<Object> now = after.get(e.getKey());
            if (now == null) {
                changes.add(withKind("-D", e.getValue()));
            } else if (!now.equals(e.getValue())) {
                changes.add(withKind("-U", e.getValue()));
                changes.add(withKind("+U", now));
            }
        }
        for (Map.Entry<List<Object>, List<Object>> e : after.entrySet()) {
            if (!before.containsKey(e.getKey())) {
                changes.add(withKind("+I", e.getValue()));
            }
        }
        return changes;
    }

    private static List<Object> withKind(String kind, List<Object> row) {
        List<Object> out = new ArrayList<>();
        out.add(kind);
        out.addAll(row);
        return out;
    }

    private static Map<List<Object>, List<Object>> copy(Map<List<Object>, List<Object>> model) {
        Map<List<Object>, List<Object>> copy = new TreeMap<>(KEY_ORDER);
        copy.putAll(model);
        return Collections.unmodifiableMap(copy);
    }

    private static List<String> sortedByString(List<List<Object>> rows) {
        return rows.stream().map(Objects::toString).sorted().toList();
    }

    private static final java.util.Comparator<List<Object>> KEY_ORDER =
            java.util.Comparator.<List<Object>, Long>comparing(k -> (Long) k.get(0))
                    .thenComparing(k -> (String) k.get(1));
    private static final java.util.Comparator<List<Object>> ROW_ORDER = KEY_ORDER;
}
