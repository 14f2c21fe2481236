package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.testing.ModelSeeds;
import io.weir.testing.Rows;
import io.weir.testing.TestStorage;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every merge engine against an independent model (docs/merge-engines.md): random records over many
 * commits, written through the upsert writer (small buffers: several flushes per commit) and the
 * bulk writer (spills), with compactions in between; every snapshot, and time travel to each at the
 * end, must equal the model. The model applies each record in order to plain Java values; the table
 * folds them in whatever groups flushes, spills, files and compactions make.
 */
class MergeEngineModelTest {
    @TempDir Path dir;

    /** An engine's model: the table's rows by key, updated record by record. */
    private interface Model {
        void apply(RowKind kind, Object[] record, Map<Long, Object[]> rows);
    }

    @ParameterizedTest(name = "seed {0}")
    @ModelSeeds({1, 2})
    void firstRow(int seed) {
        firstRow(seed, false);
    }

    @Test
    void firstRowIncremental() {
        firstRow(11, true);
    }

    private void firstRow(int seed, boolean incremental) {
        RowType type =
                RowType.of("k", DataTypes.BIGINT(), "v", DataTypes.INT(), "s", DataTypes.STRING());
        run(
                seed,
                type,
                Map.of("merge-engine", "first-row", "ignore-delete", "true"),
                true,
                (kind, r, rows) -> {
                    if (!kind.isRetraction()) {
                        rows.putIfAbsent((Long) r[0], r.clone());
                    }
                },
                incremental);
    }

    @ParameterizedTest(name = "seed {0}")
    @ModelSeeds({3, 4})
    void partialUpdateWithSequenceGroups(int seed) {
        partialUpdate(seed, false);
    }

    @Test
    void partialUpdateIncremental() {
        partialUpdate(12, true);
    }

    private void partialUpdate(int seed, boolean incremental) {
        RowType type =
                RowType.of(
                        "k", DataTypes.BIGINT(),
                        "a", DataTypes.INT(),
                        "b", DataTypes.STRING(),
                        "g1", DataTypes.BIGINT(),
                        "x", DataTypes.INT(),
                        "y", DataTypes.STRING(),
                        "g2", DataTypes.INT(),
                        "z", DataTypes.BIGINT());
        int[][] groups = {{3, 4, 5}, {6, 7}}; // sequence field first
        run(
                seed,
                type,
                Map.of(
                        "merge-engine", "partial-update",
                        "fields.g1.sequence-group", "x,y",
                        "fields.g2.sequence-group", "z"),
                true,
                (kind, r, rows) -> {
                    Object[] row = rows.get((Long) r[0]);
                    if (row == null) {
                        row = new Object[r.length];
                        row[0] = r[0];
                        rows.put((Long) r[0], row);
                    }
                    boolean retract = kind.isRetraction();
                    for (int f : new int[] {1, 2}) {
                        if (!retract && r[f] != null) {
                            row[f] = r[f];
                        }
                    }
                    for (int[] g : groups) {
                        Comparable<Object> seq = comparable(r[g[0]]);
                        if (seq == null) {
                            continue;
                        }
                        if (row[g[0]] != null && seq.compareTo(row[g[0]]) < 0) {
                            continue;
                        }
                        row[g[0]] = r[g[0]];
                        for (int i = 1; i < g.length; i++) {
                            row[g[i]] = retract ? null : r[g[i]];
                        }
                    }
                },
                incremental);
    }

    @ParameterizedTest(name = "seed {0}")
    @ModelSeeds({5, 6})
    void aggregation(int seed) {
        runAggregation(seed, false, false);
    }

    @Test
    void aggregationIncremental() {
        runAggregation(13, true, true);
    }

    @ParameterizedTest(name = "seed {0}")
    @ModelSeeds({7, 8})
    void aggregationWithRetractions(int seed) {
        runAggregation(seed, true, false);
    }

    /** The default engine with retractions: a merged newest run must keep its deletes. */
    @ParameterizedTest(name = "seed {0}")
    @ModelSeeds({14, 15})
    void deduplicateIncremental(int seed) {
        RowType type =
                RowType.of("k", DataTypes.BIGINT(), "v", DataTypes.INT(), "s", DataTypes.STRING());
        run(
                seed,
                type,
                Map.of(),
                true,
                (kind, r, rows) -> {
                    if (kind.isRetraction()) {
                        rows.remove((Long) r[0]);
                    } else {
                        rows.put((Long) r[0], r.clone());
                    }
                },
                true);
    }

    private void runAggregation(int seed, boolean retractions, boolean incremental) {
        RowType type =
                RowType.of(
                        "k", DataTypes.BIGINT(),
                        "s", DataTypes.BIGINT(),
                        "c", DataTypes.BIGINT(),
                        "mn", DataTypes.INT(),
                        "mx", DataTypes.STRING(),
                        "lv", DataTypes.STRING(),
                        "lnn", DataTypes.INT(),
                        "fv", DataTypes.INT(),
                        "fnn", DataTypes.INT(),
                        "band", DataTypes.BOOLEAN(),
                        "bor", DataTypes.BOOLEAN(),
                        "la", DataTypes.STRING(),
                        "p", DataTypes.BIGINT(),
                        "d", DataTypes.DECIMAL(12, 2));
        Map<String, String> options = new HashMap<>();
        options.put("merge-engine", "aggregation");
        String[] functions = {
            null,
            "sum",
            "count",
            "min",
            "max",
            "last_value",
            null,
            "first_value",
            "first_non_null_value",
            "bool_and",
            "bool_or",
            "listagg",
            "product",
            "sum"
        };
        for (int i = 1; i < functions.length; i++) {
            if (functions[i] != null) {
                options.put("fields." + type.field(i).name() + ".aggregate-function", functions[i]);
            }
        }
        options.put("fields.la.list-agg-delimiter", "|");
        if (retractions) {
            for (String f : List.of("mn", "mx", "fv", "fnn", "band", "bor", "la", "p")) {
                options.put("fields." + f + ".ignore-retract", "true");
            }
        }
        run(
                seed,
                type,
                options,
                retractions,
                (kind, r, rows) -> {
                    boolean retract = kind.isRetraction();
                    Object[] row = rows.get((Long) r[0]);
                    boolean first = row == null;
                    if (first) {
                        row = new Object[r.length];
                        row[0] = r[0];
                        rows.put((Long) r[0], row);
                    }
                    row[1] = sum(row[1], r[1], retract);
                    row[2] =
                            (row[2] == null ? 0L : (Long) row[2])
                                    + (r[2] == null ? 0 : retract ? -1 : 1);
                    if (!retract) {
                        row[3] = pick(row[3], r[3], -1);
                        row[4] = pick(row[4], r[4], 1);
                    }
                    row[5] = retract ? null : r[5];
                    row[6] = !retract && r[6] != null ? r[6] : row[6];
                    row[7] = first ? (retract ? null : r[7]) : row[7];
                    row[8] = row[8] == null && !retract ? r[8] : row[8];
                    if (!retract && r[9] != null) {
                        row[9] = row[9] == null ? r[9] : (Boolean) row[9] && (Boolean) r[9];
                    }
                    if (!retract && r[10] != null) {
                        row[10] = row[10] == null ? r[10] : (Boolean) row[10] || (Boolean) r[10];
                    }
                    if (!retract && r[11] != null) {
                        row[11] = row[11] == null ? r[11] : row[11] + "|" + r[11];
                    }
                    if (!retract && r[12] != null) {
                        row[12] = row[12] == null ? r[12] : (Long) row[12] * (Long) r[12];
                    }
                    if (r[13] != null) {
                        BigDecimal v = (BigDecimal) r[13];
                        BigDecimal old =
                                row[13] == null
                                        ? BigDecimal.ZERO.setScale(2)
                                        : (BigDecimal) row[13];
                        row[13] = retract ? old.subtract(v) : old.add(v);
                    }
                },
                incremental);
    }

    private static Object sum(Object acc, Object v, boolean retract) {
        if (v == null) {
            return acc;
        }
        long value = retract ? -(Long) v : (Long) v;
        return acc == null ? value : (Long) acc + value;
    }

    @SuppressWarnings("unchecked")
    private static Object pick(Object acc, Object v, int sign) {
        if (v == null) {
            return acc;
        }
        if (acc == null) {
            return v;
        }
        return Integer.signum(((Comparable<Object>) v).compareTo(acc)) == sign ? v : acc;
    }

    @SuppressWarnings("unchecked")
    private static Comparable<Object> comparable(Object o) {
        return (Comparable<Object>) o;
    }

    private void run(
            int seed,
            RowType type,
            Map<String, String> engineOptions,
            boolean retractions,
            Model model) {
        run(seed, type, engineOptions, retractions, model, false);
    }

    /**
     * @param incremental a big first commit and small ones after it, each followed by a compaction
     *     of the due groups, mostly incremental (merging the newest runs into a log file, which
     *     keeps retractions), sometimes full: the size-tiered shape of docs/table-services.md
     */
    private void run(
            int seed,
            RowType type,
            Map<String, String> engineOptions,
            boolean retractions,
            Model model,
            boolean incremental) {
        Random random = new Random(seed);
        Map<String, String> options = new HashMap<>(engineOptions);
        int keys = 40;
        if (incremental) {
            keys = 400;
            options.put("compaction.max-log-files", "3");
            options.put("compaction.max-size-amplification-percent", "150");
            options.put("compaction.run-format", seed % 2 == 0 ? "log" : "parquet");
        }
        options.put("bucket", "2");
        options.put("page-size", "4 kb");
        options.put("log.block-size", "4 kb");
        Schema schema = new Schema(type, List.of("k"), List.of());
        TestStorage storage = TestStorage.current();
        Table table = Tables.create(storage.io(), storage.location(dir, "t"), schema, options);
        Map<Long, Object[]> rows = new TreeMap<>();
        List<List<List<Object>>> history = new ArrayList<>();
        history.add(List.of());
        int compactions = 0;
        int runMerges = 0;
        for (int c = 0; c < (incremental ? 40 : 24); c++) {
            int action =
                    incremental
                            ? (c % 2 == 0 ? random.nextInt(8) : 9)
                            : c == 8 || c == 16 ? 9 : random.nextInt(10);
            if (action < 8) {
                List<RowKind> kinds = new ArrayList<>();
                List<Object[]> records = new ArrayList<>();
                int n = incremental ? (c == 0 ? 1500 : random.nextInt(60)) : random.nextInt(500);
                for (int i = 0; i < n; i++) {
                    RowKind kind =
                            retractions && random.nextInt(5) == 0
                                    ? (random.nextBoolean()
                                            ? RowKind.UPDATE_BEFORE
                                            : RowKind.DELETE)
                                    : (random.nextBoolean()
                                            ? RowKind.INSERT
                                            : RowKind.UPDATE_AFTER);
                    kinds.add(kind);
                    records.add(randomRecord(random, type, keys));
                }
                if (action < 6) {
                    try (TableWrite write = table.newWrite().writeBufferSize(16 << 10).create()) {
                        for (int i = 0; i < n; i++) {
                            write.write(BinaryRowWriter.toRow(type, kinds.get(i), records.get(i)));
                        }
                        table.newAppend().addFiles(write.prepareCommit()).commit();
                    }
                } else {
                    try (BulkWrite write =
                            table.newBulkWrite()
                                    .writeBufferSize(16 << 10)
                                    .spillDirectory(dir.resolve("spill").toString())
                                    .maxMergeFanIn(2)
                                    .create()) {
                        for (int i = 0; i < n; i++) {
                            write.write(BinaryRowWriter.toRow(type, kinds.get(i), records.get(i)));
                        }
                        table.newAppend().addFiles(write.prepareCommit()).commit();
                    }
                }
                for (int i = 0; i < n; i++) {
                    model.apply(kinds.get(i), records.get(i), rows);
                }
            } else {
                Compaction compaction = table.newCompaction();
                if (incremental ? random.nextInt(6) == 0 : random.nextBoolean()) {
                    compaction.full();
                }
                Snapshot prior = table.currentSnapshot();
                if (compaction.execute() == null) {
                    continue;
                }
                compactions++;
                // Incremental: the commit replaced some files of a group, not all of them.
                Set<String> removed = new HashSet<>(table.commit(prior.id() + 1).removed());
                if (prior.fileGroups().values().stream()
                        .anyMatch(
                                files ->
                                        files.stream().anyMatch(f -> removed.contains(f.path()))
                                                && !files.stream()
                                                        .allMatch(
                                                                f -> removed.contains(f.path())))) {
                    runMerges++;
                }
            }
            table.refresh();
            List<List<Object>> expected =
                    sorted(
                            rows.values().stream()
                                    .map(r -> (List<Object>) new ArrayList<>(Arrays.asList(r)))
                                    .toList());
            assertThat(sorted(Rows.readAll(table.newScan().rows(), type, false)))
                    .as("commit %d", table.currentSnapshot().id())
                    .isEqualTo(expected);
            assertThat(table.currentSnapshot().id()).isEqualTo(history.size());
            history.add(expected);
        }
        if (ModelSeeds.Provider.named(seed)) {
            assertThat(compactions).isGreaterThan(0);
        }
        if (incremental && ModelSeeds.Provider.named(seed)) {
            assertThat(runMerges).as("compactions that merged only newest runs").isGreaterThan(2);
        }
        for (int id = 0; id < history.size(); id++) {
            assertThat(sorted(Rows.readAll(table.newScan().useSnapshot(id).rows(), type, false)))
                    .as("as of commit %d", id)
                    .isEqualTo(history.get(id));
        }
    }

    private static Object[] randomRecord(Random random, RowType type, int keys) {
        Object[] r = new Object[type.size()];
        r[0] = (long) random.nextInt(keys);
        for (int i = 1; i < r.length; i++) {
            if (random.nextInt(5) == 0) {
                continue; // null
            }
            r[i] =
                    switch (type.type(i).root()) {
                        case BIGINT -> (long) (1 + random.nextInt(3));
                        case INT -> random.nextInt(100);
                        case BOOLEAN -> random.nextInt(4) != 0;
                        case DECIMAL -> BigDecimal.valueOf(random.nextInt(100_000) - 50_000, 2);
                        default -> "v" + random.nextInt(30);
                    };
        }
        return r;
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(r -> (Long) r.get(0)));
        return out;
    }
}
