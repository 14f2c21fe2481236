package io.weir.base;

import io.weir.exceptions.CorruptFileException;
import io.weir.io.InputFile;
import io.weir.io.LocalFileIO;
import io.weir.io.SeekableInputStream;
import io.weir.options.BaseFileCompression;

import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BaseFileCorruptionTest {
    @TempDir Path dir;
    private final LocalFileIO io = new LocalFileIO();
    private Path file;
    private byte[] bytes;

    @BeforeEach
    void writeFile() throws IOException {
        file = dir.resolve("base.parquet");
        BaseFileWriter writer =
                new BaseFileWriter(
                        io.newOutputFile(file.toString()),
                        AllTypes.SCHEMA,
                        BaseFileWriteOptions.of(BaseFileCompression.SNAPPY));
        for (Object[] values : AllTypes.rows(60)) {
            writer.write(AllTypes.toRow(AllTypes.ROW_TYPE, values));
        }
        writer.close();
        bytes = Files.readAllBytes(file);
    }

    @Test
    void overwrittenFooter() throws IOException {
        int footerLength =
                ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        byte[] corrupt = bytes.clone();
        Arrays.fill(corrupt, bytes.length - 8 - footerLength, bytes.length - 8, (byte) 0x5A);
        Files.write(file, corrupt);

        assertCorruptOnOpen();
    }

    @Test
    void truncatedFile() throws IOException {
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
        assertCorruptOnOpen();

        Files.write(file, Arrays.copyOf(bytes, bytes.length - 1));
        assertCorruptOnOpen();
    }

    @Test
    void notAParquetFile() throws IOException {
        Files.writeString(file, "id,name\n1,not parquet at all\n", StandardCharsets.UTF_8);
        assertCorruptOnOpen();

        Files.write(file, new byte[0]);
        assertCorruptOnOpen();
    }

    @Test
    void corruptDataPageFailsWhenItsRowGroupIsRead() throws IOException {
        long pageOffset;
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            ColumnChunkMetaData uniq =
                    reader.getRowGroups().get(0).getColumns().stream()
                            .filter(c -> c.getPath().toDotString().equals("uniq"))
                            .findFirst()
                            .orElseThrow();
            pageOffset = uniq.getFirstDataPageOffset();
        }
        byte[] corrupt = bytes.clone();
        // past the page header, inside the compressed values
        for (int i = 40; i < 60; i++) {
            corrupt[(int) pageOffset + i] ^= (byte) 0xA5;
        }
        Files.write(file, corrupt);

        try (BaseFileReader reader =
                new BaseFileReader(io.newInputFile(file.toString()), AllTypes.ROW_TYPE)) {
            assertThatThrownBy(
                            () -> {
                                while (reader.next()) {
                                    // read until the damage
                                }
                            })
                    .isInstanceOf(CorruptFileException.class)
                    .hasMessageContaining(file.toString())
                    .hasCauseInstanceOf(RuntimeException.class);
        }
    }

    @Test
    void missingFileIsNamed() {
        String missing = dir.resolve("missing.parquet").toString();
        assertThatThrownBy(() -> new BaseFileReader(io.newInputFile(missing), AllTypes.ROW_TYPE))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(missing)
                .hasCauseInstanceOf(FileNotFoundException.class);
    }

    @Test
    void fileSystemFailureIsNotReportedAsCorruption() {
        IOException failure = new IOException("connection reset");
        InputFile failing =
                new InputFile() {
                    @Override
                    public String path() {
                        return file.toString();
                    }

                    @Override
                    public long length() {
                        return bytes.length;
                    }

                    @Override
                    public SeekableInputStream newStream() {
                        return new SeekableInputStream() {
                            @Override
                            public long getPos() {
                                return 0;
                            }

                            @Override
                            public void seek(long newPos) {}

                            @Override
                            public int read() throws IOException {
                                throw failure;
                            }

                            @Override
                            public int read(byte[] b, int off, int len) throws IOException {
                                throw failure;
                            }
                        };
                    }
                };

        assertThatThrownBy(() -> new BaseFileReader(failing, AllTypes.ROW_TYPE))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString())
                .hasCause(failure);
    }

    private void assertCorruptOnOpen() {
        assertThatThrownBy(
                        () -> {
                            try (BaseFileReader reader =
                                    new BaseFileReader(
                                            io.newInputFile(file.toString()), AllTypes.ROW_TYPE)) {
                                while (reader.next()) {
                                    // a damaged file must not read to the end
                                }
                            }
                        })
                .isInstanceOfSatisfying(
                        CorruptFileException.class,
                        e -> {
                            assertThat(e.path()).isEqualTo(file.toString());
                            assertThat(e.getMessage()).contains(file.toString());
                            assertThat(e.getCause()).isNotNull();
                        });
    }
}
