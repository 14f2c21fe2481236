package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.exceptions.CorruptFileException;
import io.weir.io.InputFile;
import io.weir.log.LogTestSupport.Section;
import io.weir.options.LogCodec;
import io.weir.util.LittleEndian;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.weir.log.LogTestSupport.TYPE;
import static io.weir.log.LogTestSupport.fixCrc;
import static io.weir.log.LogTestSupport.inMemoryFile;
import static io.weir.log.LogTestSupport.readAll;
import static io.weir.log.LogTestSupport.sections;
import static io.weir.log.LogTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

class LogFileCorruptionTest {
    private static final String PATH = "damaged.wlog";

    @TempDir Path dir;

    /** A small file of several blocks, and its bytes. */
    private byte[] smallFile(LogCodec codec) throws IOException {
        String path = dir.resolve("original.wlog").toString();
        write(
                path,
                new LogWriterOptions(1, TYPE.size(), codec, 300),
                LogTestSupport.randomRows(new Random(11), 8, 40));
        byte[] bytes = Files.readAllBytes(Path.of(path));
        assertThat(sections(bytes)).filteredOn(s -> s.kind().equals("block")).hasSizeGreaterThan(2);
        return bytes;
    }

    @ParameterizedTest
    @EnumSource(LogCodec.class)
    void everyFlippedBitIsReportedWithinTheDamagedPart(LogCodec codec) throws IOException {
        byte[] original = smallFile(codec);
        List<Section> sections = sections(original);
        for (int pos = 0; pos < original.length; pos++) {
            Section section = sectionOf(sections, pos);
            // One bit per byte, a different one from byte to byte.
            int bit = pos % 8;
            byte[] bytes = original.clone();
            bytes[pos] ^= (byte) (1 << bit);

            CorruptFileException e = expectCorrupt(bytes, "bit %d of byte %d", bit, pos);
            assertThat(e.offset())
                    .as("offset for bit %d of byte %d in %s: %s", bit, pos, section, e.getMessage())
                    .isBetween(section.start(), section.end() - 1);
        }
    }

    @ParameterizedTest
    @EnumSource(LogCodec.class)
    void everyTruncationIsReported(LogCodec codec) throws IOException {
        byte[] original = smallFile(codec);
        for (int length = 0; length < original.length; length++) {
            expectCorrupt(Arrays.copyOf(original, length), "truncated to %d bytes", length);
        }
    }

    @Test
    void emptyFileTruncationsAreReported() throws IOException {
        String path = dir.resolve("empty.wlog").toString();
        write(path, LogWriterOptions.of(0, 1, LogCodec.NONE), List.of());
        byte[] original = Files.readAllBytes(Path.of(path));
        for (int length = 0; length < original.length; length++) {
            expectCorrupt(Arrays.copyOf(original, length), "truncated to %d bytes", length);
        }
    }

    /**
     * Damage behind a valid CRC (a writer bug, not bit rot) reaches the decompressor: it must fail
     * as corruption or, if the damage happens to decompress, read to the end; nothing else.
     */
    @ParameterizedTest
    @EnumSource(
            value = LogCodec.class,
            names = {"LZ4", "ZSTD"})
    void malformedCompressedPayloadIsReportedAsCorruption(LogCodec codec) throws IOException {
        byte[] original = smallFile(codec);
        Section block = sections(original).get(1);
        assertThat(original[(int) block.start() + 20]).isEqualTo((byte) codec.id());
        int corrupt = 0;
        for (int pos = (int) block.start() + 28; pos < block.end() - 4; pos++) {
            byte[] bytes = original.clone();
            bytes[pos] ^= (byte) (1 << (pos % 8));
            fixCrc(bytes, block);
            Throwable thrown =
                    catchThrowable(() -> readAll(inMemoryFile(PATH, bytes), TYPE.size()));
            if (thrown != null) {
                assertThat(thrown)
                        .as("byte %d", pos)
                        .isExactlyInstanceOf(CorruptFileException.class);
                assertThat(((CorruptFileException) thrown).offset())
                        .isBetween(block.start(), block.end() - 1);
                corrupt++;
            }
        }
        assertThat(corrupt).isPositive();
    }

    @Test
    void unknownCodecIsNamed() throws IOException {
        byte[] bytes = smallFile(LogCodec.NONE);
        Section block = sections(bytes).get(1);
        bytes[(int) block.start() + 20] = 9;
        fixCrc(bytes, block);

        CorruptFileException e = corruptAfterWriting(bytes);
        assertThat(e.getMessage()).contains("unknown codec id 9");
        assertThat(e.offset()).isEqualTo(block.start() + 20);
    }

    @Test
    void wrongFileMagicNamesTheFile() throws IOException {
        byte[] bytes = smallFile(LogCodec.LZ4);
        bytes[0] = 'X';
        CorruptFileException e = corruptAfterWriting(bytes);
        assertThat(e.getMessage()).contains(e.path()).contains("not a Weir log file");
        assertThat(e.offset()).isZero();
    }

    @Test
    void unsupportedVersionIsNamed() throws IOException {
        byte[] bytes = smallFile(LogCodec.NONE);
        bytes[4] = 2;
        assertThat(corruptAfterWriting(bytes).getMessage())
                .contains("unsupported format version 2");
    }

    @Test
    void trailingBytesAreReported() throws IOException {
        byte[] bytes = smallFile(LogCodec.ZSTD);
        assertThat(corruptAfterWriting(Arrays.copyOf(bytes, bytes.length + 1)).getMessage())
                .contains("trailing bytes");
        // Even when the garbage is a copy of a valid footer.
        byte[] twoFooters = Arrays.copyOf(bytes, bytes.length + 20);
        System.arraycopy(bytes, bytes.length - 20, twoFooters, bytes.length, 20);
        assertThat(corruptAfterWriting(twoFooters).offset()).isEqualTo(bytes.length - 20);
    }

    @Test
    void recordRunningPastTheBlockIsReported() throws IOException {
        byte[] bytes = smallFile(LogCodec.NONE);
        Section block = sections(bytes).get(1);
        int firstRecord = (int) block.start() + 28;
        LittleEndian.putInt(bytes, firstRecord, LittleEndian.getInt(bytes, firstRecord) + 8);
        fixCrc(bytes, block);

        CorruptFileException e = corruptAfterWriting(bytes);
        assertThat(e.getMessage()).contains("runs past the end of the payload");
        assertThat(e.offset()).isEqualTo(block.start());
    }

    @Test
    void bytesAfterTheLastRecordAreReported() throws IOException {
        byte[] bytes = smallFile(LogCodec.NONE);
        Section block =
                sections(bytes).stream()
                        .filter(s -> s.kind().equals("block"))
                        .filter(s -> LittleEndian.getInt(bytes, (int) s.start() + 16) > 1)
                        .findFirst()
                        .orElseThrow();
        int start = (int) block.start();
        // Claim one record fewer: the last record's bytes are then left over.
        LittleEndian.putInt(bytes, start + 16, LittleEndian.getInt(bytes, start + 16) - 1);
        fixCrc(bytes, block);
        assertThat(corruptAfterWriting(bytes).getMessage()).contains("bytes follow the last");
    }

    /**
     * A row framed correctly whose string slot points past the row (a writer bug behind a valid
     * CRC) is corruption when read with the table's type; it used to read the next row's bytes, or
     * throw StringIndexOutOfBoundsException.
     */
    @Test
    void variableLengthValueOutsideItsRowIsReported() throws IOException {
        String path = dir.resolve("slot.wlog").toString();
        Object[] values = new Object[TYPE.size()];
        values[0] = 1L;
        values[3] = "a string longer than seven bytes";
        write(
                path,
                LogWriterOptions.of(1, TYPE.size(), LogCodec.NONE),
                List.of(BinaryRowWriter.toRow(TYPE, RowKind.INSERT, values)));
        byte[] bytes = Files.readAllBytes(Path.of(path));
        Section block = sections(bytes).get(1);
        int row = (int) block.start() + 28 + 4;
        int slot = new BinaryRow(TYPE.size()).pointTo(bytes, row, 0).fieldOffset(3);
        LittleEndian.putInt(bytes, slot + 4, 4000); // the value's offset from the row start
        fixCrc(bytes, block);

        Throwable thrown =
                catchThrowable(
                        () -> {
                            try (LogFileReader reader =
                                    LogFileReader.open(inMemoryFile(PATH, bytes), TYPE)) {
                                while (reader.next()) {
                                    reader.row().getString(3);
                                }
                            }
                        });
        assertThat(thrown)
                .isExactlyInstanceOf(CorruptFileException.class)
                .hasMessageContaining("Corrupt file " + PATH + " at offset " + block.start())
                .hasMessageContaining("field 3 has a value of 32 bytes at 4000, outside");
    }

    /** A raw size that the codec cannot reach from the stored bytes is not allocated. */
    @Test
    void rawSizeBeyondWhatTheCodecExpandsToIsReported() throws IOException {
        byte[] bytes = smallFile(LogCodec.LZ4);
        Section block = sections(bytes).get(1);
        int stored = (int) (block.end() - block.start()) - 32;
        LittleEndian.putInt(bytes, (int) block.start() + 24, 256 * stored + 65);
        fixCrc(bytes, block);
        assertThat(corruptAfterWriting(bytes).getMessage())
                .contains("is more than LZ4 can expand " + stored + " stored bytes to");
    }

    @Test
    void footerCountsAreChecked() throws IOException {
        byte[] bytes = smallFile(LogCodec.LZ4);
        List<Section> sections = sections(bytes);
        Section footer = sections.get(sections.size() - 1);
        LittleEndian.putLong(bytes, (int) footer.start() + 8, 9);
        fixCrc(bytes, footer);

        CorruptFileException e = corruptAfterWriting(bytes);
        assertThat(e.getMessage()).contains("9 records, the file holds");
        assertThat(e.offset()).isEqualTo(footer.start());
    }

    @Test
    void wrongArityIsReported() throws IOException {
        String path = dir.resolve("arity.wlog").toString();
        write(
                path,
                LogWriterOptions.of(0, TYPE.size(), LogCodec.NONE),
                LogTestSupport.randomRows(new Random(1), 3, 5));
        Throwable e = catchThrowable(() -> readAll(path, TYPE.size() + 1));
        assertThat(e)
                .isExactlyInstanceOf(CorruptFileException.class)
                .hasMessageContaining("wrong schema");
    }

    /** Writes an edited file with LocalFileIO and expects its reading to fail. */
    private CorruptFileException corruptAfterWriting(byte[] bytes) throws IOException {
        Path edited = dir.resolve("edited.wlog");
        Files.write(edited, bytes);
        return expectCorrupt(LogTestSupport.IO.newInputFile(edited.toString()), "edited file");
    }

    /** Expects reading these bytes (kept in memory: there are thousands of them) to fail. */
    private static CorruptFileException expectCorrupt(byte[] bytes, String what, Object... args) {
        return expectCorrupt(inMemoryFile(PATH, bytes), what, args);
    }

    private static CorruptFileException expectCorrupt(InputFile file, String what, Object... args) {
        Throwable thrown = catchThrowable(() -> readAll(file, TYPE.size()));
        assertThat(thrown).as(what, args).isExactlyInstanceOf(CorruptFileException.class);
        CorruptFileException e = (CorruptFileException) thrown;
        assertThat(e.path()).as(what, args).isEqualTo(file.path());
        assertThat(e.getMessage()).as(what, args).contains(file.path());
        return e;
    }

    private static Section sectionOf(List<Section> sections, long offset) {
        return sections.stream().filter(s -> s.contains(offset)).findFirst().orElseThrow();
    }
}
