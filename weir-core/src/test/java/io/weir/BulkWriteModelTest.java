package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.testing.ModelSeeds;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bulk writes of random upserts and deletes (several partitions and buckets, a write buffer of a
 * few pages so that every write spills many runs, a merge fan-in of 3 so that runs are merged in
 * several passes) checked against an independent model, and against the same rows written by the
 * upsert writer ({@link TableWrite}) into a second table: into an empty table, and again into the
 * non-empty table, after upserts and a compaction. The spill directory is empty after every write.
 */
class BulkWriteModelTest {
    private static final RowType TYPE =
            RowType.of(
                    "id", DataTypes.BIGINT(),
                    "dt", DataTypes.STRING(),
                    "name", DataTypes.STRING(),
                    "v", DataTypes.INT(),
                    "seq", DataTypes.BIGINT());
    private static final String[] DAYS = {"2024-01-01", "2024-01-02", "2024-01-03"};
    private static final Comparator<List<Object>> KEY_ORDER =
            Comparator.<List<Object>, Long>comparing(k -> (Long) k.get(0))
                    .thenComparing(k -> (String) k.get(1));

    @TempDir Path dir;
    @TempDir Path spill;

    /** The model: the table's rows by key (id, dt). */
    private final Map<List<Object>, List<Object>> model = new TreeMap<>(KEY_ORDER);

    /** With a sequence field, a delete's sequence value beats older records (until compacted). */
    private final Map<List<Object>, Long> tombstones = new HashMap<>();

    @ParameterizedTest(name = "seed {0}")
    @ModelSeeds({1, 2, 3})
    void latestWins(int seed) throws IOException {
        run(seed, false);
    }

    @ParameterizedTest(name = "seed {0}")
    @ModelSeeds({4, 5})
    void greatestSequenceFieldWins(int seed) throws IOException {
        run(seed, true);
    }

    private void run(int seed, boolean useSequenceField) throws IOException {
        Random random = new Random(seed);
        Map<String, String> options = new HashMap<>();
        options.put("bucket", "3");
        options.put("page-size", "4 kb");
        if (useSequenceField) {
            options.put("sequence.field", "seq");
        }
        Schema schema = new Schema(TYPE, List.of("id", "dt"), List.of("dt"));
        Table bulk = Tables.create(dir.resolve("bulk").toString(), schema, options);
        Table upsert = Tables.create(dir.resolve("upsert").toString(), schema, options);

        // 1. Into the empty table.
        List<Object[]> ops = randomOps(random, 3000, useSequenceField);
        writeBoth(bulk, upsert, ops);
        assertSame(bulk, upsert);
        checkFiles(bulk);

        // 2. Upserts with the upsert writer into both tables, some compacted (which drops the
        // tombstones of a sequence field), some not.
        for (int round = 0; round < 2; round++) {
            List<Object[]> more = randomOps(random, 500, useSequenceField);
            for (Table t : List.of(bulk, upsert)) {
                try (TableWrite write = t.newWrite().create()) {
                    more.forEach(op -> write.write(toRow(op)));
                    t.newAppend().addFiles(write.prepareCommit()).commit();
                }
                if (round == 0) {
                    t.newCompaction().full().execute();
                }
            }
            if (round == 0) {
                tombstones.clear();
            }
        }
        assertSame(bulk, upsert);

        // 3. Into the non-empty table: the new base files are newer than every file before.
        List<Object[]> last = randomOps(random, 3000, useSequenceField);
        writeBoth(bulk, upsert, last);
        assertSame(bulk, upsert);
        checkFiles(bulk);

        // 4. A full compaction folds the bulk base files with the logs and older bases.
        assertThat(bulk.newCompaction().full().execute()).isNotNull();
        tombstones.clear();
        assertThat(read(bulk)).isEqualTo(rows());
    }

    /** Random rows with their kind first; applies each to the model as the upsert writer would. */
    private List<Object[]> randomOps(Random random, int count, boolean useSeq) {
        List<Object[]> ops = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long id = random.nextInt(400);
            String dt = DAYS[random.nextInt(DAYS.length)];
            int op = random.nextInt(10);
            long seq = random.nextInt(50);
            String name =
                    random.nextInt(8) == 0
                            ? null
                            : "n".repeat(random.nextInt(40)) + random.nextInt(1000);
            Integer v = random.nextInt(8) == 0 ? null : random.nextInt(1000);
            RowKind kind =
                    op < 6
                            ? RowKind.INSERT
                            : op < 8
                                    ? RowKind.UPDATE_AFTER
                                    : op < 9 ? RowKind.DELETE : RowKind.UPDATE_BEFORE;
            ops.add(new Object[] {kind, id, dt, name, v, seq});
            apply(kind, Arrays.asList(id, dt, name, v, seq), useSeq);
        }
        return ops;
    }

    private void apply(RowKind kind, List<Object> row, boolean useSeq) {
        List<Object> key = List.of(row.get(0), row.get(1));
        long seq = (Long) row.get(4);
        List<Object> current = model.get(key);
        if (useSeq && current != null && (Long) current.get(4) > seq) {
            return;
        }
        Long tombstone = tombstones.get(key);
        if (useSeq && current == null && tombstone != null && tombstone > seq) {
            return;
        }
        if (kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE) {
            model.remove(key);
            if (useSeq) {
                tombstones.put(key, seq);
            }
        } else {
            model.put(key, row);
            tombstones.remove(key);
        }
    }

    private void writeBoth(Table bulk, Table upsert, List<Object[]> ops) throws IOException {
        try (BulkWrite write =
                bulk.newBulkWrite()
                        .writeBufferSize(32 << 10)
                        .spillDirectory(spill.toString())
                        .maxMergeFanIn(3)
                        .create()) {
            ops.forEach(op -> write.write(toRow(op)));
            assertThat(write.stats().flushes()).as("spilled runs").isGreaterThan(5);
            bulk.newAppend().addFiles(write.prepareCommit()).commit();
            try (Stream<Path> left = Files.list(spill)) {
                assertThat(left).as("spill files after the write").isEmpty();
            }
        }
        try (TableWrite write = upsert.newWrite().create()) {
            ops.forEach(op -> write.write(toRow(op)));
            upsert.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    private static io.weir.data.BinaryRow toRow(Object[] op) {
        return BinaryRowWriter.toRow(TYPE, (RowKind) op[0], op[1], op[2], op[3], op[4], op[5]);
    }

    /**
     * The files of the latest commit, a bulk write's: base files with column statistics, one new
     * sequence per file group, greater than every sequence before; a log file only where the group
     * had winning deletes.
     */
    private static void checkFiles(Table table) {
        long commitId = table.currentSnapshot().id();
        long before =
                table.snapshot(commitId - 1).files().stream()
                        .mapToLong(DataFile::sequence)
                        .max()
                        .orElse(0);
        Commit commit = table.commit(commitId);
        Map<FileGroupId, Long> sequences = new HashMap<>();
        for (DataFile f : commit.added()) {
            assertThat(f.sequence()).isGreaterThan(before);
            if (f.kind() == FileKind.BASE) {
                Long previous = sequences.put(f.fileGroup(), f.sequence());
                assertThat(previous == null || previous == f.sequence())
                        .as("base files of %s share a sequence", f.fileGroup())
                        .isTrue();
                assertThat(f.columnStats()).isNotEmpty();
            } else {
                assertThat(f.recordCount()).isGreaterThan(0);
            }
        }
        assertThat(sequences).hasSize(9); // 3 partitions x 3 buckets
    }

    private void assertSame(Table bulk, Table upsert) {
        List<List<Object>> expected = rows();
        assertThat(read(bulk)).as("bulk table").isEqualTo(expected);
        assertThat(read(upsert)).as("upsert table").isEqualTo(expected);
    }

    private List<List<Object>> rows() {
        List<List<Object>> rows = new ArrayList<>(model.values());
        rows.sort(Comparator.comparing(Objects::toString));
        return rows;
    }

    private static List<List<Object>> read(Table table) {
        table.refresh();
        List<List<Object>> rows = Rows.readAll(table.newScan().rows(), TYPE, false);
        rows.sort(Comparator.comparing(Objects::toString));
        return rows;
    }
}
