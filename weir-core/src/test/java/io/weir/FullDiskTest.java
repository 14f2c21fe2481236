package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.testing.Rows;
import io.weir.testing.SmallTmpfs;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A table, or a bulk insert's spill directory, on a real file system that fills up (a small tmpfs;
 * skipped where mounting is not permitted): the write fails with one error naming the file, the
 * table and the cause; nothing committed is damaged; once space is freed the same table takes the
 * same writes again.
 */
class FullDiskTest {
    private static final RowType TYPE =
            RowType.of("id", DataTypes.BIGINT(), "v", DataTypes.STRING());

    @TempDir Path dir;
    private SmallTmpfs disk;
    private final List<List<Object>> committed = new ArrayList<>();

    @BeforeEach
    void mount() throws Exception {
        disk = SmallTmpfs.mount(dir, 8);
    }

    @AfterEach
    void unmount() throws Exception {
        if (disk != null) {
            disk.close();
        }
    }

    private Table createTable(Path location) {
        return Tables.create(
                location.toString(),
                new Schema(TYPE, List.of("id"), List.of()),
                Map.of("bucket", "1"));
    }

    /** Rows of incompressible 1 KB values, keys from {@code first}. */
    private static List<List<Object>> rows(long first, int count) {
        Random random = new Random(first);
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder v = new StringBuilder();
            for (int c = 0; c < 1000; c++) {
                v.append((char) ('a' + random.nextInt(26)));
            }
            rows.add(List.of(first + i, v.toString()));
        }
        return rows;
    }

    private static List<DataFile> write(Table table, List<List<Object>> rows) {
        try (TableWrite write = table.newWrite().create()) {
            for (List<Object> r : rows) {
                write.write(BinaryRowWriter.toRow(TYPE, r.get(0), r.get(1)));
            }
            return write.prepareCommit();
        }
    }

    private void commit(Table table, List<List<Object>> rows) {
        table.newAppend().addFiles(write(table, rows)).commit();
        committed.addAll(rows);
    }

    private void assertTableHoldsTheCommittedRows(Table table) {
        Table loaded = Tables.load(table.location());
        assertThat(Rows.readAll(loaded.newScan().rows(), TYPE, false))
                .containsExactlyInAnyOrderElementsOf(committed);
    }

    @Test
    void dataFileWriteFailsNamingFileAndTableThenWorksAgain() throws Exception {
        Table table = createTable(disk.dir().resolve("t"));
        commit(table, rows(0, 100));
        disk.fill();

        List<List<Object>> batch = rows(1000, 500);
        assertThatThrownBy(() -> write(table, batch))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageMatching(
                        "Cannot write file "
                                + table.location()
                                + "/bucket-0/log-\\S+\\.wlog of table "
                                + table.location()
                                + ": No space left on device");
        assertTableHoldsTheCommittedRows(table);

        disk.free();
        commit(table, batch);
        assertTableHoldsTheCommittedRows(table);
        Tables.load(table.location()).newCompaction().full().execute();
        assertTableHoldsTheCommittedRows(table);
    }

    @Test
    void commitFailsNamingTheCommitFileAndTableThenWorksAgain() throws Exception {
        Table table = createTable(disk.dir().resolve("t"));
        commit(table, rows(0, 100));
        List<List<Object>> batch = rows(1000, 100);
        List<DataFile> files = write(table, batch);
        disk.fill();

        // The commit file is written to a temporary file and linked: it cannot have landed, but
        // a commit does not tell local from object storage, so it says to reload and retry.
        assertThatThrownBy(() -> table.newAppend().addFiles(files).commit())
                .isInstanceOf(CommitStateUnknownException.class)
                .hasMessageContaining(
                        "of table "
                                + table.location()
                                + " landed: writing "
                                + table.location()
                                + "/_weir/commits/00000000000000000002.json failed")
                .hasMessageContaining("No space left on device");
        assertTableHoldsTheCommittedRows(table);

        disk.free();
        Tables.load(table.location()).newAppend().addFiles(files).commit();
        committed.addAll(batch);
        assertTableHoldsTheCommittedRows(table);
    }

    @Test
    void bulkInsertSpillFailsNamingTheSpillFileThenWorksAgain() throws Exception {
        Table table = createTable(dir.resolve("t"));
        commit(table, rows(0, 10));
        disk.fill();

        List<List<Object>> batch = rows(1000, 2000);
        assertThatThrownBy(() -> bulkInsert(table, batch))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageMatching(
                        "Cannot write spill file "
                                + disk.dir()
                                + "/weir-bulk-\\d+/run-0\\.wspill of table "
                                + table.location()
                                + ": No space left on device");
        assertTableHoldsTheCommittedRows(table);

        disk.free();
        bulkInsert(table, batch);
        committed.addAll(batch);
        assertTableHoldsTheCommittedRows(table);
    }

    private void bulkInsert(Table table, List<List<Object>> rows) {
        try (BulkWrite write =
                table.newBulkWrite()
                        .writeBufferSize(256 << 10)
                        .spillDirectory(disk.dir().toString())
                        .create()) {
            for (List<Object> r : rows) {
                write.write(BinaryRowWriter.toRow(TYPE, r.get(0), r.get(1)));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }
}
