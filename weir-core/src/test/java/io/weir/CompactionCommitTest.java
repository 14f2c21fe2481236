package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.exceptions.CommitConflictException;
import io.weir.io.FileIO;
import io.weir.options.RunFormat;
import io.weir.testing.Rows;
import io.weir.testing.TestStorage;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Compaction in steps (plan, rewrite per group, one commit), as engines run it in parallel tasks:
 * the rows stay, a second compaction of the same files conflicts and deletes its own files, and a
 * retried commit that had landed never deletes the committed files. Also the log-bytes trigger.
 */
class CompactionCommitTest {
    private static final RowType TYPE = RowType.of("k", DataTypes.INT(), "v", DataTypes.BIGINT());

    @TempDir Path dir;
    private final TestStorage storage = TestStorage.current();
    private final FileIO io = storage.io();
    private final Map<String, String> locations = new HashMap<>();

    @Test
    void rewriteThenCommitOnce() {
        Table table = table(Map.of("bucket", "2"));
        for (int c = 0; c < 3; c++) {
            append(table, c);
        }
        List<List<Object>> before = rows(table);

        Compaction first = table.newCompaction().full();
        List<ScanTask> tasks = first.plan();
        Compaction second = table.newCompaction().full();
        List<ScanTask> sameTasks = second.plan();
        assertThat(tasks).hasSize(2);
        List<DataFile> outputs = new ArrayList<>();
        tasks.forEach(t -> outputs.addAll(first.rewrite(t)));
        List<DataFile> otherOutputs = new ArrayList<>();
        sameTasks.forEach(t -> otherOutputs.addAll(second.rewrite(t)));

        CompactionResult result = first.commit(tasks, outputs);
        assertThat(result.fileGroups()).isEqualTo(2);
        assertThat(result.filesRemoved()).isEqualTo(6);
        assertThat(rows(table)).isEqualTo(before);

        // The same compaction again (a task restarted after its commit): conflict, files kept.
        assertThatThrownBy(() -> first.commit(tasks, outputs))
                .isInstanceOf(CommitConflictException.class);
        assertThat(outputs).allSatisfy(f -> assertThat(exists("t", f)).isTrue());
        assertThat(rows(table)).isEqualTo(before);

        // A concurrent compaction of the same files loses and deletes its own files.
        assertThatThrownBy(() -> second.commit(sameTasks, otherOutputs))
                .isInstanceOf(CommitConflictException.class);
        assertThat(otherOutputs).allSatisfy(f -> assertThat(exists("t", f)).isFalse());
    }

    private boolean exists(String table, DataFile file) throws IOException {
        return io.exists(locations.get(table) + "/" + file.path());
    }

    @Test
    void logBytesMakeAGroupDue() {
        Table table =
                table(
                        Map.of(
                                "bucket",
                                "1",
                                "compaction.max-log-files",
                                "50",
                                "compaction.max-log-bytes",
                                "1 b"));
        append(table, 0);
        assertThat(table.newCompaction().plan()).hasSize(1);
        Table byCount = table(Map.of("bucket", "1", "compaction.max-log-files", "50"), "u");
        append(byCount, 0);
        assertThat(byCount.newCompaction().plan()).isEmpty();
    }

    /**
     * An incremental compaction merges a group's newest logs into one log file that keeps their
     * place: a log committed while it ran stays newer, and a delete it merged still hides the key's
     * row in the base it left alone.
     */
    @ParameterizedTest
    @EnumSource(RunFormat.class)
    void mergedRunsKeepTheirPlaceBeforeLogsCommittedMeanwhile(RunFormat format) {
        Table table =
                table(
                        Map.of(
                                "bucket",
                                "1",
                                "compaction.max-log-files",
                                "3",
                                "compaction.run-format",
                                format.name().toLowerCase(java.util.Locale.ROOT)));
        write(table, 0, 400, 0, -1);
        assertThat(table.newCompaction().full().execute()).isNotNull();
        write(table, 0, 40, 1, 100); // and deletes key 100, which the base holds
        write(table, 0, 40, 2, -1);
        write(table, 20, 60, 3, -1);
        table.refresh();
        long lastSequence =
                table.currentSnapshot().files().stream()
                        .mapToLong(DataFile::sequence)
                        .max()
                        .orElseThrow();

        Compaction compaction = table.newCompaction();
        List<ScanTask> tasks = compaction.plan();
        assertThat(tasks).hasSize(1);
        assertThat(tasks.get(0).files())
                .hasSize(3)
                .allSatisfy(f -> assertThat(f.kind()).isEqualTo(FileKind.LOG));
        // Parquet: the live rows as a base file, the delete that still hides key 100 of the base
        // as a log file; log: all in one log file. Both in the place of the newest log merged.
        List<DataFile> outputs = compaction.rewrite(tasks.get(0));
        assertThat(outputs).allSatisfy(f -> assertThat(f.sequence()).isEqualTo(lastSequence));
        DataFile deletes = outputs.get(outputs.size() - 1);
        assertThat(deletes.kind()).isEqualTo(FileKind.LOG);
        assertThat(deletes.maxKey()).containsExactly("100");
        if (format == RunFormat.PARQUET) {
            assertThat(outputs).hasSize(2);
            DataFile base = outputs.get(0);
            assertThat(base.kind()).isEqualTo(FileKind.BASE);
            assertThat(base.recordCount()).isEqualTo(60); // keys 0..59
            assertThat(base.minKey()).containsExactly("0");
            assertThat(base.maxKey()).containsExactly("59");
            assertThat(deletes.recordCount()).isEqualTo(1);
            assertThat(deletes.minKey()).containsExactly("100");
        } else {
            assertThat(outputs).hasSize(1);
            assertThat(deletes.recordCount()).isEqualTo(61); // keys 0..59 and the delete
            assertThat(deletes.minKey()).containsExactly("0");
        }

        write(table, 30, 50, 4, -1); // committed while the compaction runs
        compaction.commit(tasks, outputs);

        table.refresh();
        List<DataFile> live = table.currentSnapshot().files();
        assertThat(live).hasSize(2 + outputs.size());
        for (DataFile output : outputs) {
            assertThat(live.stream().filter(f -> f.path().equals(output.path())))
                    .singleElement()
                    .satisfies(f -> assertThat(f.sequence()).isEqualTo(lastSequence));
        }
        List<List<Object>> expected = new ArrayList<>();
        for (int k = 0; k < 400; k++) {
            int c = k >= 30 && k < 50 ? 4 : k >= 20 && k < 60 ? 3 : k < 40 ? 2 : 0;
            if (k != 100) {
                expected.add(List.of(k, c * 1000L + k));
            }
        }
        assertThat(rows(table)).isEqualTo(expected);
    }

    /** Upserts keys {@code from} to {@code to - 1} with value {@code c * 1000 + k}. */
    private static void write(Table table, int from, int to, int c, int delete) {
        try (TableWrite write = table.newWrite().create()) {
            for (int k = from; k < to; k++) {
                write.write(BinaryRowWriter.toRow(TYPE, k, c * 1000L + k));
            }
            if (delete >= 0) {
                write.write(BinaryRowWriter.toRow(TYPE, RowKind.DELETE, delete, 0L));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    private Table table(Map<String, String> options) {
        return table(options, "t");
    }

    private Table table(Map<String, String> options, String name) {
        String location = storage.location(dir, name);
        locations.put(name, location);
        return Tables.create(io, location, new Schema(TYPE, List.of("k"), List.of()), options);
    }

    private static void append(Table table, int c) {
        try (TableWrite write = table.newWrite().create()) {
            for (int k = 0; k < 40; k++) {
                write.write(BinaryRowWriter.toRow(TYPE, k, c * 100L + k));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    private static List<List<Object>> rows(Table table) {
        table.refresh();
        List<List<Object>> rows = Rows.readAll(table.newScan().rows(), TYPE, false);
        rows.sort((a, b) -> Integer.compare((Integer) a.get(0), (Integer) b.get(0)));
        return rows;
    }
}
