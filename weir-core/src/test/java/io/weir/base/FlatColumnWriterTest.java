package io.weir.base;

import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesWriter;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The definition levels of a page without nulls, which {@link FlatColumnWriter} writes without
 * parquet-java's encoder: the same bytes as the encoder, for every count a page can hold. The rest
 * of the writer is held to parquet-java's by {@code ParquetRowWriterTest}, file against file.
 */
class FlatColumnWriterTest {
    @Test
    void aPageWithoutNullsHasTheLevelsParquetJavasEncoderWrites() throws Exception {
        byte[] ours = new byte[Integer.BYTES + 6];
        int[] counts = {1, 2, 7, 8, 9, 63, 64, 65, 127, 128, 129, 16_383, 16_384, 20_000, 1 << 21};
        for (int count : counts) {
            assertSameRun(ours, count);
        }
        for (int count = 1; count <= 3_000; count++) {
            assertSameRun(ours, count);
        }
    }

    private static void assertSameRun(byte[] ours, int count) throws Exception {
        RunLengthBitPackingHybridValuesWriter encoder =
                new RunLengthBitPackingHybridValuesWriter(
                        1, 64, 1 << 20, HeapByteBufferAllocator.getInstance());
        for (int i = 0; i < count; i++) {
            encoder.writeInteger(1);
        }
        // What the page-size checks see while the levels are only counted.
        assertThat(encoder.getBufferedSize()).isZero();
        byte[] theirs = encoder.getBytes().toByteArray();
        int length = FlatColumnWriter.oneRun(ours, count);
        assertThat(Arrays.copyOf(ours, length)).as("%d levels", count).isEqualTo(theirs);
        encoder.close();
    }
}
