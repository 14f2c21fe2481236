package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.io.OutputFile;
import io.weir.testing.ForwardingFileIO;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The bulk writer's files, its append-only mode, its errors, and its cleanup after failures. */
class BulkWriteTest {
    private static final RowType TYPE =
            RowType.of("id", DataTypes.BIGINT(), "dt", DataTypes.STRING(), "v", DataTypes.STRING());
    private static final Schema KEYED = new Schema(TYPE, List.of("id", "dt"), List.of("dt"));

    @TempDir Path dir;
    @TempDir Path spill;

    @Test
    void insertsOnlyWriteSortedBaseFilesRolledAtTheTargetSize() throws IOException {
        Table table = create(KEYED, Map.of("bucket", "1", "target-file-size", "1 mb"));
        Random random = new Random(7);
        int rows = 40_000;
        try (BulkWrite write = bulkWrite(table, 1 << 20)) {
            for (int i = 0; i < rows; i++) {
                // Random keys, each once; values that do not compress, so files roll.
                long id = (i * 7919L) % rows;
                write.write(BinaryRowWriter.toRow(TYPE, id, "d", randomText(random, 60)));
            }
            List<DataFile> files = write.prepareCommit();
            assertThat(write.stats().flushes()).as("spilled runs").isGreaterThan(1);
            assertThat(files).hasSizeGreaterThan(1).allMatch(f -> f.kind() == FileKind.BASE);
            assertThat(files).allMatch(f -> f.sizeInBytes() < (2 << 20));
            // Consecutive, disjoint key ranges.
            for (int i = 1; i < files.size(); i++) {
                long previousMax = Long.parseLong(files.get(i - 1).maxKey().get(0));
                long min = Long.parseLong(files.get(i).minKey().get(0));
                assertThat(min).isEqualTo(previousMax + 1);
            }
            assertThat(files.stream().mapToLong(DataFile::recordCount).sum()).isEqualTo(rows);
            table.newAppend().addFiles(files).commit();
        }
        assertSpillDirectoryEmpty();
        table.refresh();
        assertThat(table.currentSnapshot().files()).allMatch(f -> f.sequence() == 1);
        List<List<Object>> read = Rows.readAll(table.newScan().rows(), TYPE, false);
        assertThat(read).hasSize(rows);
        assertThat(read.get(0).get(0)).isEqualTo(0L);
        assertThat(read.get(rows - 1).get(0)).isEqualTo((long) rows - 1);
    }

    @Test
    void winningDeletesGoToOneLogFilePerFileGroup() {
        Table table = create(KEYED, Map.of("bucket", "1"));
        commit(table, RowKind.INSERT, 1L, "a", 2L, "a", 3L, "b");
        try (BulkWrite write = bulkWrite(table, 1 << 20)) {
            write.write(BinaryRowWriter.toRow(TYPE, RowKind.DELETE, 1L, "a", null));
            write.write(BinaryRowWriter.toRow(TYPE, RowKind.INSERT, 2L, "a", "new"));
            write.write(BinaryRowWriter.toRow(TYPE, RowKind.INSERT, 4L, "b", "four"));
            // A delete that a later insert overrides is no delete.
            write.write(BinaryRowWriter.toRow(TYPE, RowKind.DELETE, 5L, "b", null));
            write.write(BinaryRowWriter.toRow(TYPE, RowKind.INSERT, 5L, "b", "five"));
            // A -U retracts its key like a -D: key 3 goes too.
            write.write(BinaryRowWriter.toRow(TYPE, RowKind.UPDATE_BEFORE, 3L, "b", null));
            List<DataFile> files = write.prepareCommit();
            assertThat(files)
                    .extracting(
                            f -> f.kind() + " " + f.partition().values() + " " + f.recordCount())
                    .containsExactlyInAnyOrder(
                            "BASE [a] 1", "LOG [a] 1", "BASE [b] 2", "LOG [b] 1");
            table.newAppend().addFiles(files).commit();
        }
        assertThat(rows(table))
                .containsExactly(
                        List.of(2L, "a", "new"),
                        List.of(4L, "b", "four"),
                        List.of(5L, "b", "five"));
    }

    @Test
    void appendOnlyKeepsEveryRowInArrivalOrderPerBucket() throws IOException {
        Table table =
                create(
                        new Schema(TYPE, List.of(), List.of("dt")),
                        Map.of("bucket", "2", "page-size", "4 kb"));
        List<List<Object>> expected = new ArrayList<>();
        try (BulkWrite write = bulkWrite(table, 64 << 10, 1)) {
            for (int i = 0; i < 20_000; i++) {
                String dt = i % 3 == 0 ? "x" : "y";
                String v = i % 10 == 0 ? "same" : "v" + i;
                write.write(BinaryRowWriter.toRow(TYPE, (long) (i % 100), dt, v));
                expected.add(List.of((long) (i % 100), dt, v));
            }
            assertThatThrownBy(
                            () ->
                                    write.write(
                                            BinaryRowWriter.toRow(
                                                    TYPE, RowKind.DELETE, 1L, "x", null)))
                    .isInstanceOf(ValidationException.class)
                    .hasMessageContaining("it has no primary key, so rows can only be appended");
            assertThat(write.stats().flushes()).isGreaterThan(3);
            List<DataFile> files = write.prepareCommit();
            assertThat(files).allMatch(f -> f.kind() == FileKind.BASE && f.bucket() == 1);
            table.newAppend().addFiles(files).commit();
        }
        // Arrival order within each partition: the scan reads one file group after another.
        List<List<Object>> read = Rows.readAll(table.newScan().rows(), TYPE, false);
        Comparator<List<Object>> byPartition = Comparator.comparing(r -> (String) r.get(1));
        expected.sort(byPartition);
        read.sort(byPartition);
        assertThat(read).isEqualTo(expected);
        assertSpillDirectoryEmpty();
    }

    @Test
    void aBulkWriteIsOneSort() throws IOException {
        Table table = create(KEYED, Map.of("bucket", "1"));
        try (BulkWrite write = bulkWrite(table, 1 << 20)) {
            write.write(BinaryRowWriter.toRow(TYPE, 1L, "a", "x"));
            assertThat(write.prepareCommit()).hasSize(1);
            assertThat(write.prepareCommit()).isEmpty();
            assertThatThrownBy(() -> write.write(BinaryRowWriter.toRow(TYPE, 2L, "a", "y")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("prepareCommit() finished it");
            assertThatThrownBy(
                            () ->
                                    write.write(
                                            BinaryRowWriter.toRow(
                                                    TYPE, RowKind.INSERT, null, "a", "x")))
                    .isInstanceOf(IllegalStateException.class);
        }
        try (BulkWrite write = bulkWrite(table, 1 << 20)) {
            assertThatThrownBy(
                            () ->
                                    write.write(
                                            BinaryRowWriter.toRow(
                                                    TYPE, RowKind.INSERT, null, "a", "x")))
                    .isInstanceOf(ValidationException.class)
                    .hasMessageContaining("null primary key");
            assertThat(write.prepareCommit()).isEmpty();
        }
        // Without a spill no spill directory is made.
        assertSpillDirectoryEmpty();
    }

    @Test
    void aFailedWriteDeletesItsFilesAndSpillFiles() throws IOException {
        AtomicInteger baseFiles = new AtomicInteger();
        FileIO failing =
                new FailingIO(
                        path -> path.endsWith(".parquet") && baseFiles.incrementAndGet() == 3);
        Table table =
                Tables.create(
                        failing,
                        dir.resolve("t").toString(),
                        KEYED,
                        Map.of("bucket", "4", "page-size", "4 kb"));
        try (BulkWrite write =
                table.newBulkWrite()
                        .writeBufferSize(32 << 10)
                        .spillDirectory(spill.toString())
                        .create()) {
            for (int i = 0; i < 5_000; i++) {
                write.write(BinaryRowWriter.toRow(TYPE, (long) i, "d" + i % 2, "v" + i));
            }
            assertThat(write.stats().flushes()).isGreaterThan(2);
            try (Stream<Path> spilled = Files.list(spill)) {
                assertThat(spilled).hasSize(1); // the writer's own directory
            }
            assertThatThrownBy(write::prepareCommit).hasMessageContaining("injected");
            assertThatThrownBy(write::prepareCommit)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("failed");
        }
        assertSpillDirectoryEmpty();
        try (Stream<Path> files = Files.walk(dir.resolve("t"))) {
            assertThat(files.filter(p -> p.toString().endsWith(".parquet"))).isEmpty();
        }
    }

    @Test
    void bulkBaseFilesInANonEmptyGroupMakeItDueForCompaction() {
        Table table = create(KEYED, Map.of("bucket", "1", "compaction.max-log-files", "3"));
        for (int i = 0; i < 3; i++) {
            try (BulkWrite write = bulkWrite(table, 1 << 20)) {
                write.write(BinaryRowWriter.toRow(TYPE, (long) i, "a", "v" + i));
                write.write(BinaryRowWriter.toRow(TYPE, 9L, "a", "nine-" + i));
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
            table.refresh();
            // The first base file is the group's base; later ones are newer deltas.
            assertThat(table.newCompaction().plan()).isEmpty();
        }
        commit(table, RowKind.INSERT, 5L, "a");
        assertThat(table.newCompaction().plan()).hasSize(1);
        assertThat(table.newCompaction().execute()).isNotNull();
        assertThat(rows(table))
                .containsExactly(
                        List.of(0L, "a", "v0"),
                        List.of(1L, "a", "v1"),
                        List.of(2L, "a", "v2"),
                        List.of(5L, "a", "v5"),
                        List.of(9L, "a", "nine-2"));
    }

    @Test
    void theBaseFilesOfOneBulkInsertCountAsOneSortedRun() {
        Table table =
                create(
                        KEYED,
                        Map.of(
                                "bucket", "1",
                                "compaction.max-log-files", "2",
                                "target-file-size", "1 mb"));
        Map<Long, String> model = new TreeMap<>();
        for (int round = 0; round < 2; round++) {
            try (BulkWrite write = bulkWrite(table, 64 << 20)) {
                for (long id = 0; id < 40_000; id++) {
                    String v = round + "-" + id + "-" + "x".repeat(60) + Long.toHexString(id * 31);
                    write.write(BinaryRowWriter.toRow(TYPE, id, "a", v));
                    model.put(id, v);
                }
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
            table.refresh();
        }
        ScanTask group = table.newScan().plan().get(0);
        // The second insert is several files but one sorted run: the group is not due.
        assertThat(group.deltaFiles()).hasSizeGreaterThan(1);
        assertThat(group.deltaRuns()).isEqualTo(1);
        assertThat(table.newCompaction().plan()).isEmpty();

        commit(table, RowKind.INSERT, 7L, "a");
        model.put(7L, "v7");
        assertThat(table.newCompaction().plan()).hasSize(1);
        assertThat(table.newCompaction().execute()).isNotNull();
        List<List<Object>> expected = new ArrayList<>();
        model.forEach((id, v) -> expected.add(List.of(id, "a", v)));
        expected.sort(Comparator.comparing(Objects::toString));
        assertThat(rows(table)).isEqualTo(expected);
    }

    private Table create(Schema schema, Map<String, String> options) {
        return Tables.create(dir.resolve("t").toString(), schema, options);
    }

    private BulkWrite bulkWrite(Table table, long buffer) {
        return bulkWrite(table, buffer, 0);
    }

    private BulkWrite bulkWrite(Table table, long buffer, int appendBucket) {
        return table.newBulkWrite()
                .writeBufferSize(buffer)
                .appendBucket(appendBucket)
                .spillDirectory(spill.toString())
                .create();
    }

    /** Commits upserts of (id, dt) pairs with value "v" + id, written by the upsert writer. */
    private static void commit(Table table, RowKind kind, Object... keys) {
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < keys.length; i += 2) {
                write.write(BinaryRowWriter.toRow(TYPE, kind, keys[i], keys[i + 1], "v" + keys[i]));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
        table.refresh();
    }

    private static List<List<Object>> rows(Table table) {
        table.refresh();
        List<List<Object>> rows = Rows.readAll(table.newScan().rows(), TYPE, false);
        rows.sort(Comparator.comparing(Objects::toString));
        return rows;
    }

    private void assertSpillDirectoryEmpty() throws IOException {
        try (Stream<Path> left = Files.list(spill)) {
            assertThat(left).as("spill files left").isEmpty();
        }
    }

    private static String randomText(Random random, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) ('!' + random.nextInt(90)));
        }
        return sb.toString();
    }

    /** Local files, except that creating a file the predicate selects fails. */
    private static final class FailingIO extends ForwardingFileIO {
        private final Predicate<String> fail;

        FailingIO(Predicate<String> fail) {
            this.fail = fail;
        }

        @Override
        public OutputFile newOutputFile(String path) {
            if (fail.test(path)) {
                throw new IllegalStateException("injected failure creating " + path);
            }
            return super.newOutputFile(path);
        }
    }
}
