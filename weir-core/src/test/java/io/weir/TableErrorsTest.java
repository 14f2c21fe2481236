package io.weir;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.MissingFileException;
import io.weir.exceptions.NoSuchTableException;
import io.weir.exceptions.TableAlreadyExistsException;
import io.weir.exceptions.ValidationException;
import io.weir.expressions.Expressions;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad input and damaged files get clear errors, and committed data stays intact. */
class TableErrorsTest {
    private static final RowType TYPE =
            RowType.of("id", DataTypes.BIGINT(), "dt", DataTypes.STRING(), "v", DataTypes.STRING());

    @TempDir Path dir;
    private Table table;

    @BeforeEach
    void createTable() {
        table =
                Tables.create(
                        dir.resolve("t").toString(),
                        new Schema(TYPE, List.of("id", "dt"), List.of("dt")),
                        Map.of("bucket", "1"));
        commit(1L, "a", "one");
        commit(2L, "b", "two");
    }

    @Test
    void nullPrimaryKeyIsRejectedAndNothingIsWritten() {
        try (TableWrite write = table.newWrite().create()) {
            assertThatThrownBy(
                            () ->
                                    write.write(
                                            BinaryRowWriter.toRow(
                                                    TYPE, RowKind.INSERT, null, "a", "x")))
                    .isInstanceOf(ValidationException.class)
                    .hasMessage(
                            "Cannot write a row with a null primary key to table "
                                    + table.location()
                                    + ": column 'id' is null");
            assertThat(write.prepareCommit()).isEmpty();
        }
    }

    @Test
    void invalidRowKindBytesAreRejectedAndUpdateBeforeRowsRetract() {
        try (TableWrite write = table.newWrite().create()) {
            for (byte bad : new byte[] {4, 7, -1, (byte) 0x80}) {
                BinaryRow row = BinaryRowWriter.toRow(TYPE, 3L, "c", "x");
                row.bytes()[row.offset()] = bad;
                assertThatThrownBy(() -> write.write(row))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("Invalid row kind byte: " + bad);
            }
            assertThat(write.stats().records()).isZero();
            // A -U is kept: it retracts its key, as a -D does.
            write.write(BinaryRowWriter.toRow(TYPE, RowKind.UPDATE_BEFORE, 3L, "c", "x"));
            assertThat(write.stats().records()).isEqualTo(1);
            assertThat(write.prepareCommit()).hasSize(1);
        }
    }

    /**
     * A file deleted between its writing and its commit (orphan removal with too short an age) must
     * not be published: the commit fails naming it, and the table keeps its committed rows.
     */
    @Test
    void aCommitOfAFileThatNoLongerExistsIsRefused() throws IOException {
        List<DataFile> files;
        try (TableWrite write = table.newWrite().create()) {
            write.write(BinaryRowWriter.toRow(TYPE, RowKind.INSERT, 3L, "c", "three"));
            files = write.prepareCommit();
        }
        Files.delete(dir.resolve("t").resolve(files.get(0).path()));
        long before = table.currentSnapshot().id();
        assertThatThrownBy(() -> table.newAppend().addFiles(files).commit())
                .isInstanceOf(MissingFileException.class)
                .hasMessageContaining("to table " + table.location() + ": its data file ")
                .hasMessageContaining(files.get(0).path() + " does not exist")
                .hasMessageEndingWith("nothing was committed");
        table.refresh();
        assertThat(table.currentSnapshot().id()).isEqualTo(before);
        assertThat(Rows.readAll(table.newScan().rows(), TYPE, false))
                .containsExactlyInAnyOrder(List.of(1L, "a", "one"), List.of(2L, "b", "two"));
    }

    @Test
    void orphanRemovalRefusesAnAgeBelowOneMinute() {
        assertThatThrownBy(() -> table.removeOrphanFiles().olderThan(Duration.ofSeconds(59)))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Invalid age '59 s' for orphan removal of table "
                                + table.location()
                                + ": must be at least 1 min, so that the files of writes still to"
                                + " be committed survive");
    }

    @Test
    void rowsOfTheWrongShapeAreRejected() {
        try (TableWrite write = table.newWrite().create()) {
            RowType other = RowType.of("id", DataTypes.BIGINT());
            assertThatThrownBy(() -> write.write(BinaryRowWriter.toRow(other, 1L)))
                    .isInstanceOf(ValidationException.class)
                    .hasMessage(
                            "Cannot write a row of 1 fields to table "
                                    + table.location()
                                    + " with 3 columns");
        }
    }

    @Test
    void aMissingFileNamesTableAndFileWhileOtherPartitionsStayReadable() throws IOException {
        DataFile a = fileOf("a");
        Files.delete(dir.resolve("t").resolve(a.path()));
        assertThatThrownBy(() -> Rows.readAll(table.newScan().rows(), TYPE, false))
                .isInstanceOf(MissingFileException.class)
                .hasMessage(
                        "Cannot read table "
                                + table.location()
                                + ": file "
                                + a.path()
                                + " of file group [a]/bucket-0 is missing, though committed"
                                + " metadata references it");
        assertThat(
                        Rows.readAll(
                                table.newScan().filter(Expressions.equal("dt", "b")).rows(),
                                TYPE,
                                false))
                .containsExactly(List.of(2L, "b", "two"));
    }

    @Test
    void corruptLogBytesAreDetectedNamingTheFile() throws IOException {
        DataFile a = fileOf("a");
        Path file = dir.resolve("t").resolve(a.path());
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            long pos = raf.length() / 2;
            raf.seek(pos);
            int b = raf.read();
            raf.seek(pos);
            raf.write(b ^ 0x10);
        }
        assertThatThrownBy(() -> Rows.readAll(table.newScan().rows(), TYPE, false))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageStartingWith(
                        "Corrupt file " + table.location() + "/" + a.path() + " at offset");
        // The metadata is untouched: the other partition still reads, and the commits are there.
        assertThat(
                        Rows.readAll(
                                table.newScan().filter(Expressions.equal("dt", "b")).rows(),
                                TYPE,
                                false))
                .containsExactly(List.of(2L, "b", "two"));
        assertThat(Tables.load(table.location()).currentSnapshot().id()).isEqualTo(2);
    }

    @Test
    void invalidOptionsAreRejectedAndNoTableIsCreated() {
        String location = dir.resolve("bad").toString();
        Schema schema = new Schema(TYPE, List.of("id", "dt"), List.of());
        assertThatThrownBy(() -> Tables.create(location, schema, Map.of("bucket", "-1")))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot create table "
                                + location
                                + ": Invalid value '-1' for option 'bucket': must be between 1 and"
                                + " 32768");
        assertThatThrownBy(() -> Tables.create(location, schema, Map.of("sequence.field", "ts")))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot create table "
                                + location
                                + ": Invalid option 'sequence.field': column 'ts' does not exist"
                                + " (columns: [id, dt, v])");
        assertThatThrownBy(() -> Tables.load(location)).isInstanceOf(NoSuchTableException.class);
    }

    @Test
    void creatingTwiceFailsAndLoadingNothingFails() {
        assertThatThrownBy(
                        () ->
                                Tables.create(
                                        table.location(),
                                        new Schema(TYPE, List.of(), List.of()),
                                        Map.of()))
                .isInstanceOf(TableAlreadyExistsException.class);
        assertThatThrownBy(() -> Tables.load(dir.resolve("nothing").toString()))
                .isInstanceOf(NoSuchTableException.class)
                .hasMessageContaining(dir.resolve("nothing").toString());
    }

    @Test
    void unknownColumnsInScansAreRejected() {
        assertThatThrownBy(() -> table.newScan().select("id", "nope"))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot select column 'nope' of table "
                                + table.location()
                                + ": no such column (columns: [id, dt, v])");
    }

    private void commit(long id, String dt, String v) {
        try (TableWrite write = table.newWrite().create()) {
            write.write(BinaryRowWriter.toRow(TYPE, id, dt, v));
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    private DataFile fileOf(String dt) {
        return table.currentSnapshot().files().stream()
                .filter(f -> f.partition().equals(Partition.of(dt)))
                .findFirst()
                .orElseThrow();
    }
}
