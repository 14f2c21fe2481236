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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which blocks a log file stores compressed: those that compression shrinks by at least an eighth.
 * After a block that it does not, the writer stores the next 1, 3, 7, then 15 blocks without
 * trying, until a block it tries compresses.
 */
class LogBlockCompressionTest {
    private static final RowType TYPE =
            RowType.of("id", DataTypes.BIGINT().notNull(), "data", DataTypes.BYTES());

    private static final int BLOCK_SIZE = 4096;

    @TempDir Path dir;

    @ParameterizedTest
    @EnumSource(
            value = LogCodec.class,
            names = {"LZ4", "ZSTD"})
    void blocksThatDoNotCompressAreStoredAsTheyAreAndTriedLessOften(LogCodec codec)
            throws IOException {
        // 40 blocks of random bytes, then 40 of repeated bytes. A block takes the records that fit
        // in BLOCK_SIZE bytes; each record is a row and its 4-byte length.
        int rowSize = BinaryRowWriter.toRow(TYPE, 0L, new byte[1000]).sizeInBytes();
        int rowsPerBlock = BLOCK_SIZE / (4 + rowSize);
        Random random = new Random(7);
        List<BinaryRow> rows = new ArrayList<>();
        for (int i = 0; i < 80 * rowsPerBlock; i++) {
            byte[] data = new byte[1000];
            if (i < 40 * rowsPerBlock) {
                random.nextBytes(data);
            } else {
                Arrays.fill(data, (byte) i);
            }
            rows.add(BinaryRowWriter.toRow(TYPE, RowKind.INSERT, (long) i, data));
        }
        String path = dir.resolve(codec + ".wlog").toString();
        LogTestSupport.write(path, new LogWriterOptions(1, TYPE.size(), codec, BLOCK_SIZE), rows);

        List<Integer> codecs = new ArrayList<>();
        byte[] file = Files.readAllBytes(Path.of(path));
        for (LogTestSupport.Section section : LogTestSupport.sections(file)) {
            if (section.kind().equals("block")) {
                codecs.add((int) file[(int) section.start() + 20]);
            }
        }
        // Tried: blocks 0, 2, 6, 14 and 30 (random, not worth it: then 1, 3, 7, 15 and 15 blocks
        // stored untried), then 46, the first block of repeated bytes tried, and all after it.
        List<Integer> expected = new ArrayList<>();
        for (int b = 0; b < 80; b++) {
            expected.add(b < 46 ? LogCodec.NONE.id() : codec.id());
        }
        assertThat(codecs).isEqualTo(expected);
        assertThat(LogTestSupport.readAll(path, TYPE.size())).isEqualTo(rows);
    }
}
