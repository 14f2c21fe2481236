package io.weir.read;

import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowReader;
import io.weir.exceptions.CorruptFileException;
import io.weir.io.LocalFileIO;
import io.weir.log.LogFileWriter;
import io.weir.log.LogWriterOptions;
import io.weir.options.LogCodec;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a merge of a file group's files does with a file that breaks the format's order. */
class FileGroupReaderTest {
    private static final RowType TYPE = RowType.of("k", DataTypes.INT(), "v", DataTypes.BIGINT());

    @TempDir Path dir;

    @Test
    void aLogFileOutOfKeyOrderFailsTheReadNamingTheFile() throws IOException {
        LocalFileIO io = new LocalFileIO();
        String location = dir.resolve("t").toString();
        Table table =
                Tables.create(
                        io,
                        location,
                        new Schema(TYPE, List.of("k"), List.of()),
                        Map.of("bucket", "1", "log.codec", "none"));
        append(table, 0, 10);
        append(table, 0, 5);
        DataFile first =
                table.newScan().plan().get(0).files().stream()
                        .filter(f -> f.kind() == FileKind.LOG)
                        .min((a, b) -> Long.compare(a.sequence(), b.sequence()))
                        .orElseThrow();
        String path = location + "/" + first.path();
        long size = Files.size(Path.of(path));

        // The same ten records with 5 and 6 swapped, checksums and all: a writer's bug, not a
        // damaged byte, and the same size as the file the commit recorded.
        Files.delete(Path.of(path));
        LogFileWriter writer =
                new LogFileWriter(
                        io.newOutputFile(path), LogWriterOptions.of(0, TYPE.size(), LogCodec.NONE));
        for (int k : new int[] {0, 1, 2, 3, 4, 6, 5, 7, 8, 9}) {
            BinaryRow row = BinaryRowWriter.toRow(TYPE, k, 1000L + k);
            writer.write(row.bytes(), row.offset(), row.sizeInBytes());
        }
        writer.close();
        assertThat(Files.size(Path.of(path))).isEqualTo(size);

        assertThatThrownBy(
                        () -> {
                            try (RowReader rows = table.newScan().rows()) {
                                while (rows.next()) {
                                    // on to the record out of order
                                }
                            }
                        })
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("Corrupt file " + path + ": ")
                .hasMessageContaining("records are not in key order");
    }

    private static void append(Table table, int from, int to) {
        try (TableWrite write = table.newWrite().create()) {
            for (int k = from; k < to; k++) {
                write.write(BinaryRowWriter.toRow(TYPE, k, 1000L + k));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }
}
