package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.exceptions.TableAlreadyExistsException;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;
import io.weir.service.TableDeletion;
import io.weir.testing.TestStorage;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A table is never created over files Weir did not write, and dropping a table deletes only the
 * table's files (through {@link TestStorage}: local disk, or S3 with -Dweir.test.storage=s3).
 */
class TableLocationTest {
    private static final RowType TYPE =
            RowType.of("id", DataTypes.BIGINT(), "dt", DataTypes.STRING(), "v", DataTypes.STRING());
    private static final Schema SCHEMA = new Schema(TYPE, List.of("id", "dt"), List.of("dt"));

    @TempDir Path dir;
    private final TestStorage storage = TestStorage.current();
    private final FileIO io = storage.io();

    @Test
    void createRefusesALocationWithForeignFiles() throws Exception {
        String location = storage.location(dir, "t");
        write(location + "/notes.txt", "mine");
        write(location + "/data/part-0.csv", "1,2");
        assertThatThrownBy(() -> Tables.create(io, location, SCHEMA, Map.of()))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith(
                        "Cannot create table at " + location + ": the location holds 2")
                .hasMessageContaining(location + "/notes.txt")
                .hasMessageContaining(location + "/data/part-0.csv");
        assertThat(io.exists(location + "/_weir/schemas/0.json")).isFalse();

        // Empty or absent is fine; a table there is "table exists".
        String empty = storage.location(dir, "empty");
        Table t = Tables.create(io, empty, SCHEMA, Map.of());
        commit(t, 1L, "a");
        assertThatThrownBy(() -> Tables.create(io, empty, SCHEMA, Map.of()))
                .isInstanceOf(TableAlreadyExistsException.class);
    }

    @Test
    void dropDeletesOnlyTheTablesFiles() throws Exception {
        String location = storage.location(dir, "t");
        Table t = Tables.create(io, location, SCHEMA, Map.of("bucket", "1"));
        commit(t, 1L, "a");
        commit(t, 2L, "b");
        t.newCompaction().full().execute();
        // A failed write's output: named as Weir names data files, referenced by nothing.
        write(location + "/dt=a/bucket-0/log-00000000-dead.wlog", "x");
        // Foreign files: someone else's, in the table's directories and beside them.
        List<String> foreign =
                List.of(
                        location + "/README.md",
                        location + "/dt=a/notes.txt",
                        location + "/dt=a/bucket-0/export.parquet",
                        location + "/bucket-0/log-x.wlog"); // not under a partition directory
        for (String f : foreign) {
            write(f, "keep me");
        }

        TableDeletion.Result result = Tables.drop(io, location);
        assertThat(result.kept()).containsExactlyInAnyOrderElementsOf(foreign);
        assertThat(paths(location)).containsExactlyInAnyOrderElementsOf(foreign);
        assertThat(result.deleted())
                .contains(location + "/dt=a/bucket-0/log-00000000-dead.wlog")
                .anyMatch(p -> p.startsWith(location + "/_weir/commits/"))
                .anyMatch(p -> p.endsWith(".parquet"));
    }

    @Test
    void dropOfATableWithOnlyItsOwnFilesRemovesEverything() throws Exception {
        String location = storage.location(dir, "t");
        Table t = Tables.create(io, location, SCHEMA, Map.of("bucket", "2"));
        commit(t, 1L, "a");
        TableDeletion.Result result = Tables.drop(io, location);
        assertThat(result.kept()).isEmpty();
        assertThat(paths(location)).isEmpty();
        // The location is free again.
        Tables.create(io, location, SCHEMA, Map.of());
    }

    private List<String> paths(String location) throws Exception {
        return io.listRecursive(location).stream().map(FileStatus::path).toList();
    }

    private void write(String path, String content) throws Exception {
        io.writeIfAbsent(path, content.getBytes(StandardCharsets.UTF_8));
    }

    private static void commit(Table t, long id, String dt) {
        try (TableWrite write = t.newWrite().create()) {
            write.write(BinaryRowWriter.toRow(TYPE, id, dt, "v"));
            t.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }
}
