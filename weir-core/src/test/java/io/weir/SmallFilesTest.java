package io.weir;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.data.RowReader;
import io.weir.expressions.Expressions;
import io.weir.io.InputFile;
import io.weir.read.DataFileReaders;
import io.weir.testing.ForwardingFileIO;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
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
 * Small files and target-sized outputs: compaction bin-packs an append-only group's small files
 * (logs, undersized bases) into files of {@code target-file-size} and never rewrites full ones; it
 * splits a large keyed group into target-sized files with ascending, disjoint key ranges, each
 * sorted; append-only writers fill the group with undersized data first. Contents always equal a
 * model.
 */
class SmallFilesTest {
    private static final long MB = 1 << 20;
    private static final RowType EVENTS =
            RowType.of("name", DataTypes.STRING(), "n", DataTypes.BIGINT());
    private static final RowType KEYED =
            RowType.of(
                    "id", DataTypes.BIGINT(), "name", DataTypes.STRING(), "n", DataTypes.BIGINT());

    @TempDir Path dir;

    private final Random random = new Random(23);

    @Test
    void appendOnlySmallFilesArePackedIntoTargetSizedFiles() {
        Table table =
                Tables.create(
                        dir.resolve("events").toString(),
                        new Schema(EVENTS, List.of(), List.of()),
                        Map.of("bucket", "1", "target-file-size", "1 mb"));
        List<String> model = new ArrayList<>();
        for (int c = 0; c < 14; c++) {
            append(table, model, 2500);
        }
        int logs = table.currentSnapshot().files().size();
        long logBytes = bytes(table.currentSnapshot().files());
        assertThat(logs).isEqualTo(14);
        assertThat(logBytes).isGreaterThan(3 * MB);

        CompactionResult first = table.newCompaction().full().execute();
        table.refresh();
        List<DataFile> packed = table.currentSnapshot().files();
        assertThat(first.filesRemoved()).isEqualTo(14);
        assertSizes(packed);
        assertThat(read(table)).isEqualTo(sorted(model));

        // More small files: only they and the one undersized file are packed; full files stay.
        Set<String> full = new HashSet<>();
        packed.stream().filter(f -> !undersized(f)).forEach(f -> full.add(f.path()));
        assertThat(full).hasSizeGreaterThanOrEqualTo(2);
        for (int c = 0; c < 6; c++) {
            append(table, model, 2500);
        }
        List<ScanTask> plan = table.newCompaction().full().plan();
        assertThat(plan).hasSize(1);
        assertThat(plan.get(0).files()).noneMatch(f -> full.contains(f.path()));
        assertThat(plan.get(0).files()).hasSize(6 + (packed.size() - full.size()));
        table.newCompaction().full().execute();
        table.refresh();
        List<DataFile> after = table.currentSnapshot().files();
        assertThat(after.stream().map(DataFile::path).toList()).containsAll(full);
        assertSizes(after);
        assertThat(read(table)).isEqualTo(sorted(model));
        // Nothing left to pack with a full round: at most one undersized file.
        assertThat(table.newCompaction().full().plan()).isEmpty();
    }

    @Test
    void appendOnlyGroupsAreDueWhenTheirSmallFilesFillATargetFile() {
        Table table =
                Tables.create(
                        dir.resolve("due").toString(),
                        new Schema(EVENTS, List.of(), List.of()),
                        Map.of(
                                "bucket", "1",
                                "target-file-size", "1 mb",
                                "compaction.max-log-files", "100"));
        List<String> model = new ArrayList<>();
        append(table, model, 2500);
        append(table, model, 2500);
        assertThat(table.newCompaction().plan()).isEmpty(); // 2 small files, far from 1 MB
        while (bytes(table.currentSnapshot().files()) < MB) {
            append(table, model, 2500);
        }
        assertThat(table.newCompaction().plan()).hasSize(1);
        assertThat(table.newCompaction().execute()).isNotNull();
        table.refresh();
        assertThat(read(table)).isEqualTo(sorted(model));
    }

    @Test
    void aLargeKeyedGroupIsSplitIntoTargetSizedFilesSortedByKey() {
        Table table =
                Tables.create(
                        dir.resolve("keyed").toString(),
                        new Schema(KEYED, List.of("id"), List.of()),
                        Map.of("bucket", "1", "target-file-size", "1 mb"));
        Map<Long, List<Object>> model = new TreeMap<>();
        for (int c = 0; c < 4; c++) {
            try (TableWrite write = table.newWrite().create()) {
                for (int i = 0; i < 25_000; i++) {
                    long id = random.nextInt(100_000);
                    String name = name(60 + random.nextInt(40));
                    long n = random.nextLong();
                    write.write(BinaryRowWriter.toRow(KEYED, id, name, n));
                    model.put(id, List.of(id, name, n));
                }
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
        }
        for (int round = 0; round < 2; round++) {
            table.newCompaction().full().execute();
            table.refresh();
            List<DataFile> bases = new ArrayList<>(table.currentSnapshot().files());
            assertThat(bases)
                    .hasSizeGreaterThanOrEqualTo(3)
                    .allMatch(f -> f.kind() == FileKind.BASE);
            assertSizes(bases);
            // Ascending, disjoint key ranges; each file sorted by key.
            bases.sort((a, b) -> Long.compare(key(a.minKey()), key(b.minKey())));
            for (int i = 1; i < bases.size(); i++) {
                assertThat(key(bases.get(i).minKey()))
                        .isGreaterThan(key(bases.get(i - 1).maxKey()));
            }
            KeyFields key = KeyFields.of(KEYED, new int[] {0});
            for (DataFile f : bases) {
                assertSortedByKey(table, f, key);
            }
            // Read file after file in key order, without a merge; counted from metadata alone.
            List<List<Object>> rows = Rows.readAll(table.newScan().rows(), KEYED, false);
            assertThat(rows).isEqualTo(new ArrayList<>(model.values()));
            DataReads reads = new DataReads();
            Table counted = Tables.load(reads, table.location());
            assertThat(counted.newScan().count()).isEqualTo(model.size());
            assertThat(reads.dataFiles).isZero();
            assertThat(counted.newScan().filter(Expressions.greaterThan("n", 0L)).count())
                    .isEqualTo(model.values().stream().filter(r -> (Long) r.get(2) > 0).count());
            assertThat(reads.dataFiles).isEqualTo(bases.size());
            // Then a few updates spread over the keys, and compact again.
            try (TableWrite write = table.newWrite().create()) {
                for (int i = 0; i < 500; i++) {
                    long id = random.nextInt(100_000);
                    List<Object> row = List.of(id, "updated", (long) i);
                    write.write(BinaryRowWriter.toRow(KEYED, id, "updated", (long) i));
                    model.put(id, row);
                }
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
        }
        // Full base files and no log: a full round has nothing to do.
        table.newCompaction().full().execute();
        table.refresh();
        assertThat(table.newCompaction().full().plan()).isEmpty();
    }

    @Test
    void appendOnlyWritersFillTheGroupWithUndersizedDataFirst() {
        Table table =
                Tables.create(
                        dir.resolve("routed").toString(),
                        new Schema(
                                RowType.of(
                                        "day", DataTypes.INT(),
                                        "name", DataTypes.STRING(),
                                        "n", DataTypes.BIGINT()),
                                List.of(),
                                List.of("day")),
                        Map.of("bucket", "4", "target-file-size", "1 mb"));
        RowType type = table.schema().rowType();
        // Day 1 has small data in bucket 2 only; day 2 has none.
        try (TableWrite write = table.newWrite().appendBucket(2).create()) {
            write.write(BinaryRowWriter.toRow(type, 1, "a", 1L));
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
        try (TableWrite write = table.newWrite().appendBuckets(1, 2, 3).create()) {
            for (int i = 0; i < 100; i++) {
                write.write(BinaryRowWriter.toRow(type, 1 + i % 2, "b", (long) i));
            }
            List<DataFile> files = write.prepareCommit();
            Map<String, Integer> buckets = new HashMap<>();
            files.forEach(f -> buckets.put(f.partition().values().get(0), f.bucket()));
            assertThat(buckets).isEqualTo(Map.of("1", 2, "2", 1));
            table.newAppend().addFiles(files).commit();
        }
        assertThat(Rows.readAll(table.newScan().rows(), type, false)).hasSize(101);
    }

    // ---- helpers

    /** Counts the data files opened. */
    private static final class DataReads extends ForwardingFileIO {
        int dataFiles;

        @Override
        public InputFile newInputFile(String path) {
            if (path.endsWith(".parquet") || path.endsWith(".wlog")) {
                dataFiles++;
            }
            return super.newInputFile(path);
        }
    }

    /** Every file but at most one is within [3/4, 5/4] of the target; that one is smaller. */
    private static void assertSizes(List<DataFile> files) {
        int small = 0;
        for (DataFile f : files) {
            assertThat(f.sizeInBytes()).as(f.path()).isLessThanOrEqualTo(MB * 5 / 4);
            if (undersized(f)) {
                small++;
            }
        }
        assertThat(small).as("undersized files of %s", files).isLessThanOrEqualTo(1);
    }

    private static boolean undersized(DataFile f) {
        return f.sizeInBytes() < Compaction.undersizedBelow(MB);
    }

    private static void assertSortedByKey(Table table, DataFile f, KeyFields key) {
        BinaryRow previous = null;
        try (RowReader rows =
                DataFileReaders.open(table.io(), table.location(), f, table.schema().rowType())) {
            while (rows.next()) {
                if (previous != null) {
                    assertThat(key.compare(previous, rows.row())).as(f.path()).isNegative();
                }
                previous = rows.row().copy();
            }
        }
    }

    private void append(Table table, List<String> model, int rows) {
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < rows; i++) {
                String name = name(80 + random.nextInt(40));
                long n = random.nextLong();
                write.write(BinaryRowWriter.toRow(EVENTS, name, n));
                model.add(name + "/" + n);
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    private String name(int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }

    private static List<String> read(Table table) {
        List<String> rows = new ArrayList<>();
        for (List<Object> r : Rows.readAll(table.newScan().rows(), EVENTS, false)) {
            rows.add(r.get(0) + "/" + r.get(1));
        }
        return sorted(rows);
    }

    private static List<String> sorted(List<String> rows) {
        List<String> copy = new ArrayList<>(rows);
        copy.sort(null);
        return copy;
    }

    private static long bytes(List<DataFile> files) {
        return files.stream().mapToLong(DataFile::sizeInBytes).sum();
    }

    private static long key(List<String> key) {
        return Long.parseLong(Objects.requireNonNull(key.get(0)));
    }
}
