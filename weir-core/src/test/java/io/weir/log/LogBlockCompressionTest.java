package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.options.LogCodec;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.weir.log.LogTestSupport.IO;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which blocks a log file stores compressed: those that compression shrinks by at least an eighth.
 * After a block that it does not, the writer stores the next 1, 3, 7, 15, 31, then 63 blocks
 * without trying, until a block it tries compresses.
 */
class LogBlockCompressionTest {
    private static final RowType TYPE =
            RowType.of("id", DataTypes.BIGINT().notNull(), "data", DataTypes.BYTES());

    private static final int BLOCK_SIZE = 4096;

    @TempDir Path dir;

    /** {@code blocks} blocks of rows of 1000 random bytes, or of one repeated byte. */
    private static List<BinaryRow> rows(int blocks, boolean random, long firstId) {
        int rowSize = BinaryRowWriter.toRow(TYPE, 0L, new byte[1000]).sizeInBytes();
        int rowsPerBlock = BLOCK_SIZE / (4 + rowSize);
        Random bytes = new Random(firstId);
        List<BinaryRow> rows = new ArrayList<>();
        for (long i = firstId; i < firstId + (long) blocks * rowsPerBlock; i++) {
            byte[] data = new byte[1000];
            if (random) {
                bytes.nextBytes(data);
            } else {
                Arrays.fill(data, (byte) i);
            }
            rows.add(BinaryRowWriter.toRow(TYPE, RowKind.INSERT, i, data));
        }
        return rows;
    }

    /** The codec id of each block of a log file, in order. */
    private static List<Integer> blockCodecs(String path) throws IOException {
        List<Integer> codecs = new ArrayList<>();
        byte[] file = Files.readAllBytes(Path.of(path));
        for (LogTestSupport.Section section : LogTestSupport.sections(file)) {
            if (section.kind().equals("block")) {
                codecs.add((int) file[(int) section.start() + 20]);
            }
        }
        return codecs;
    }

    /**
     * The files of one writer's buffers go on where the last one stopped: after a file of blocks
     * that do not compress, the next file's first blocks are stored without trying, and its first
     * block tried compresses; a file with buffers of its own tries its first block.
     */
    @ParameterizedTest
    @EnumSource(
            value = LogCodec.class,
            names = {"LZ4", "ZSTD"})
    void sharedBuffersCarryTheTrialsFromFileToFile(LogCodec codec) throws IOException {
        LogWriterOptions options = new LogWriterOptions(1, TYPE.size(), codec, BLOCK_SIZE);
        List<BinaryRow> noise = rows(20, true, 0);
        List<BinaryRow> repeated = rows(20, false, 1_000_000);
        String first = dir.resolve("first.wlog").toString();
        String second = dir.resolve("second.wlog").toString();
        try (LogWriteBuffers buffers = new LogWriteBuffers(codec)) {
            for (String path : List.of(first, second)) {
                LogFileWriter writer = new LogFileWriter(IO.newOutputFile(path), options, buffers);
                for (BinaryRow row : path.equals(first) ? noise : repeated) {
                    writer.write(row);
                }
                writer.close();
            }
        }
        // The first file tried blocks 0, 2, 6 and 14, then stored 15 without trying: 15 to 19,
        // and the second file's 0 to 9; it tries block 10, which compresses.
        List<Integer> expected = new ArrayList<>();
        for (int b = 0; b < 20; b++) {
            expected.add(b < 10 ? LogCodec.NONE.id() : codec.id());
        }
        assertThat(blockCodecs(first)).containsOnly(LogCodec.NONE.id());
        assertThat(blockCodecs(second)).isEqualTo(expected);
        assertThat(LogTestSupport.readAll(second, TYPE.size())).isEqualTo(repeated);

        String own = dir.resolve("own.wlog").toString();
        LogTestSupport.write(own, options, repeated);
        assertThat(blockCodecs(own)).containsOnly(codec.id());
    }

    @ParameterizedTest
    @EnumSource(
            value = LogCodec.class,
            names = {"LZ4", "ZSTD"})
    void blocksThatDoNotCompressAreStoredAsTheyAreAndTriedLessOften(LogCodec codec)
            throws IOException {
        // 40 blocks of random bytes, then 40 of repeated bytes. A block takes the records that fit
        // in BLOCK_SIZE bytes; each record is a row and its 4-byte length.
        List<BinaryRow> rows = new ArrayList<>(rows(40, true, 0));
        rows.addAll(rows(40, false, rows.size()));
        String path = dir.resolve(codec + ".wlog").toString();
        LogTestSupport.write(path, new LogWriterOptions(1, TYPE.size(), codec, BLOCK_SIZE), rows);

        List<Integer> codecs = blockCodecs(path);
        // Tried: blocks 0, 2, 6, 14 and 30 (random, not worth it: then 1, 3, 7, 15 and 31 blocks
        // stored untried), then 62, the first block of repeated bytes tried, and all after it.
        List<Integer> expected = new ArrayList<>();
        for (int b = 0; b < 80; b++) {
            expected.add(b < 62 ? LogCodec.NONE.id() : codec.id());
        }
        assertThat(codecs).isEqualTo(expected);
        assertThat(LogTestSupport.readAll(path, TYPE.size())).isEqualTo(rows);
    }
}
