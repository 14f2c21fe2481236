package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.io.InputFile;
import io.weir.io.SeekableInputStream;
import io.weir.options.LogCodec;
import io.weir.types.DataTypes;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.weir.log.LogTestSupport.IO;
import static io.weir.log.LogTestSupport.TYPE;
import static io.weir.log.LogTestSupport.readAll;
import static io.weir.log.LogTestSupport.sections;
import static io.weir.log.LogTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogFileRoundTripTest {
    private static final int[] BLOCK_SIZES = {1, 100, 4096, 64 << 10, 1 << 20};

    @TempDir Path dir;

    @ParameterizedTest
    @EnumSource(LogCodec.class)
    void randomRowsRoundTripForEveryBlockSize(LogCodec codec) throws IOException {
        // Strings of up to 100k chars: rows larger than every block size but the largest.
        List<BinaryRow> rows = LogTestSupport.randomRows(new Random(42), 400, 100_000);
        assertThat(rows).extracting(BinaryRow::rowKind).contains(RowKind.values());
        long deletes = rows.stream().filter(r -> !r.rowKind().isAdd()).count(); // -U and -D
        for (int blockSize : BLOCK_SIZES) {
            String path = dir.resolve(codec + "-" + blockSize + ".wlog").toString();
            LogFileInfo info =
                    write(path, new LogWriterOptions(7, TYPE.size(), codec, blockSize), rows);

            assertThat(info)
                    .isEqualTo(
                            new LogFileInfo(path, rows.size(), Files.size(Path.of(path)), deletes));
            assertThat(readAll(path, TYPE.size())).as("block size %d", blockSize).isEqualTo(rows);
            assertBlocksRespect(Files.readAllBytes(Path.of(path)), blockSize);
        }
    }

    /** Every block's payload is within the block size, unless it holds a single record. */
    private static void assertBlocksRespect(byte[] file, int blockSize) {
        for (LogTestSupport.Section s : sections(file)) {
            if (s.kind().equals("block")) {
                int records = LittleEndian.getInt(file, (int) s.start() + 16);
                int rawSize = LittleEndian.getInt(file, (int) s.start() + 24);
                assertThat(records == 1 || rawSize <= blockSize)
                        .as("block at %d: %d records, %d bytes", s.start(), records, rawSize)
                        .isTrue();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(LogCodec.class)
    void emptyFileHasHeaderAndFooterOnly(LogCodec codec) throws IOException {
        String path = dir.resolve("empty.wlog").toString();
        LogFileInfo info = write(path, LogWriterOptions.of(1, 3, codec), List.of());

        assertThat(info).isEqualTo(new LogFileInfo(path, 0, 28, 0));
        try (LogFileReader reader = LogFileReader.open(IO.newInputFile(path), 3)) {
            assertThat(reader.recordCount()).isZero();
            assertThat(reader.next()).isFalse();
            assertThat(reader.next()).isFalse();
        }
    }

    @Test
    void compressedBlocksAreSmallerAndRecordTheirCodec() throws IOException {
        List<BinaryRow> rows = LogTestSupport.randomRows(new Random(7), 2000, 300);
        long[] sizes = new long[LogCodec.values().length];
        for (LogCodec codec : LogCodec.values()) {
            String path = dir.resolve(codec + ".wlog").toString();
            LogFileInfo info = write(path, LogWriterOptions.of(3, TYPE.size(), codec), rows);
            sizes[codec.ordinal()] = info.fileSizeInBytes();
            byte[] file = Files.readAllBytes(Path.of(path));
            assertThat(file[8 + 20]).as("codec id of the first block").isEqualTo((byte) codec.id());
        }
        assertThat(sizes[LogCodec.LZ4.ordinal()]).isLessThan(sizes[LogCodec.NONE.ordinal()]);
        assertThat(sizes[LogCodec.ZSTD.ordinal()]).isLessThan(sizes[LogCodec.LZ4.ordinal()]);
    }

    @Test
    void incompressibleBlockIsStoredUncompressed() throws IOException {
        RowType type = RowType.of("b", DataTypes.BYTES());
        byte[] noise = new byte[5000];
        new Random(1).nextBytes(noise);
        BinaryRow row = BinaryRowWriter.toRow(type, (Object) noise);
        for (LogCodec codec : List.of(LogCodec.LZ4, LogCodec.ZSTD)) {
            String path = dir.resolve("noise-" + codec + ".wlog").toString();
            write(path, LogWriterOptions.of(0, 1, codec), List.of(row));
            assertThat(Files.readAllBytes(Path.of(path))[8 + 20]).isEqualTo((byte) 0);
            assertThat(readAll(path, 1)).containsExactly(row);
        }
    }

    @Test
    void rawBytesFromAPageAreWrittenAsTheyAre() throws IOException {
        List<BinaryRow> rows = LogTestSupport.randomRows(new Random(3), 50, 50);
        // Rows laid one after another in one array, as in a write buffer page.
        byte[] page = new byte[rows.stream().mapToInt(BinaryRow::sizeInBytes).sum() + 5];
        int[] offsets = new int[rows.size()];
        int at = 5;
        for (int i = 0; i < rows.size(); i++) {
            offsets[i] = at;
            rows.get(i).copyTo(page, at);
            at += rows.get(i).sizeInBytes();
        }
        String path = dir.resolve("page.wlog").toString();
        LogFileWriter writer =
                new LogFileWriter(
                        IO.newOutputFile(path), LogWriterOptions.of(0, TYPE.size(), LogCodec.LZ4));
        for (int i = 0; i < rows.size(); i++) {
            writer.write(page, offsets[i], rows.get(i).sizeInBytes());
            assertThat(writer.recordCount()).isEqualTo(i + 1);
        }
        writer.close();
        assertThat(readAll(path, TYPE.size())).isEqualTo(rows);
    }

    @Test
    void readerExposesSchemaIdAndRecordCount() throws IOException {
        List<BinaryRow> rows = LogTestSupport.randomRows(new Random(5), 20, 10);
        String path = dir.resolve("meta.wlog").toString();
        write(path, new LogWriterOptions(12, TYPE.size(), LogCodec.ZSTD, 256), rows);
        try (LogFileReader reader = LogFileReader.open(IO.newInputFile(path), TYPE.size())) {
            assertThat(reader.path()).isEqualTo(path);
            assertThat(reader.recordCount()).isEqualTo(20);
            assertThat(reader.schemaId()).isEqualTo(-1);
            assertThat(reader.next()).isTrue();
            assertThat(reader.schemaId()).isEqualTo(12);
        }
    }

    @Test
    void writerRejectsBadRowsAndUseAfterClose() throws IOException {
        String path = dir.resolve("bad.wlog").toString();
        LogFileWriter writer =
                new LogFileWriter(IO.newOutputFile(path), LogWriterOptions.of(0, 2, LogCodec.NONE));
        BinaryRow wrongArity = BinaryRowWriter.toRow(RowType.of("a", DataTypes.INT()), 1);
        assertThatThrownBy(() -> writer.write(wrongArity))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(path)
                .hasMessageContaining("arity 1");
        assertThatThrownBy(() -> writer.write(new byte[16], 0, 16))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("16 bytes");
        byte[] badKind = new byte[24];
        badKind[0] = 4;
        assertThatThrownBy(() -> writer.write(badKind, 0, 24))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("row kind byte 4");

        LogFileInfo info = writer.close();
        assertThat(writer.close()).isSameAs(info);
        assertThatThrownBy(() -> writer.write(new byte[24], 0, 24))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(
                        () ->
                                new LogFileWriter(
                                        IO.newOutputFile(path),
                                        LogWriterOptions.of(0, 2, LogCodec.NONE)))
                .isInstanceOf(IOException.class);
    }

    @Test
    void abortedFileIsUnreadable() throws IOException {
        String path = dir.resolve("aborted.wlog").toString();
        LogFileWriter writer =
                new LogFileWriter(
                        IO.newOutputFile(path), LogWriterOptions.of(0, TYPE.size(), LogCodec.NONE));
        for (BinaryRow row : LogTestSupport.randomRows(new Random(9), 10, 10)) {
            writer.write(row);
        }
        writer.abort();
        assertThatThrownBy(() -> writer.close()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> readAll(path, TYPE.size()))
                .isInstanceOf(io.weir.exceptions.CorruptFileException.class);
    }

    @Test
    void filesAreReadThroughTheReadOnceStream() throws IOException {
        String path = dir.resolve("once.wlog").toString();
        List<BinaryRow> rows = LogTestSupport.randomRows(new Random(10), 300, 5_000);
        write(path, new LogWriterOptions(1, TYPE.size(), LogCodec.LZ4, 4096), rows);
        InputFile local = IO.newInputFile(path);
        List<String> opened = new ArrayList<>();
        InputFile recording =
                new InputFile() {
                    @Override
                    public String path() {
                        return path;
                    }

                    @Override
                    public long length() throws IOException {
                        return local.length();
                    }

                    @Override
                    public SeekableInputStream newStream() throws IOException {
                        opened.add("cached");
                        return local.newStream();
                    }

                    @Override
                    public SeekableInputStream newUncachedStream() throws IOException {
                        opened.add("uncached");
                        return local.newUncachedStream();
                    }
                };

        assertThat(readAll(recording, TYPE.size())).isEqualTo(rows);
        assertThat(opened).containsExactly("uncached");
    }

    @Test
    void missingFileIsNamed() {
        String path = dir.resolve("missing.wlog").toString();
        assertThatThrownBy(() -> LogFileReader.open(IO.newInputFile(path), 1))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining(path);
    }

    @Test
    void optionsAreValidated() {
        assertThatThrownBy(() -> new LogWriterOptions(0, 1, LogCodec.NONE, 0))
                .hasMessageContaining("block size 0");
        assertThatThrownBy(() -> new LogWriterOptions(0, -1, LogCodec.NONE, 10))
                .hasMessageContaining("arity -1");
        assertThatThrownBy(() -> new LogWriterOptions(0, 1, null, 10))
                .isInstanceOf(NullPointerException.class);
    }
}
