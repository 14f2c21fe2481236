package io.weir.base;

import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.bitpacking.BitPackingValuesWriter;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.io.ParquetDecodingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The hybrid decoder against parquet-java's encoders, as the model. */
class HybridDecoderTest {
    /** Values of {@code bitWidth} bits: runs of repeats (RLE runs) between random stretches. */
    private static int[] values(int bitWidth, int count, long seed) {
        Random random = new Random(seed);
        long bound = 1L << bitWidth;
        int[] values = new int[count];
        int k = 0;
        while (k < count) {
            int run = random.nextBoolean() ? 1 : 1 + random.nextInt(40);
            int value = (int) (random.nextLong() & (bound - 1));
            for (int i = 0; i < run && k < count; i++) {
                values[k++] = run == 1 ? (int) (random.nextLong() & (bound - 1)) : value;
            }
        }
        return values;
    }

    private static byte[] encode(int bitWidth, int[] values) throws Exception {
        try (RunLengthBitPackingHybridEncoder encoder =
                new RunLengthBitPackingHybridEncoder(
                        bitWidth, 64, 1 << 20, HeapByteBufferAllocator.getInstance())) {
            for (int v : values) {
                encoder.writeInt(v);
            }
            return encoder.toBytes().toByteArray();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 5, 7, 8, 9, 12, 16, 17, 20, 24, 31, 32})
    void decodesWhatParquetJavaEncodes(int bitWidth) throws Exception {
        for (int count : new int[] {1, 7, 8, 9, 100, 1000, 20_001}) {
            int[] values = values(bitWidth, count, 31L * count + bitWidth);
            byte[] encoded = encode(bitWidth, values);
            // placed inside a larger array, with bytes before and after that must not be read
            byte[] data = new byte[encoded.length + 10];
            Arrays.fill(data, (byte) 0x5A);
            System.arraycopy(encoded, 0, data, 3, encoded.length);
            int[] out = new int[count + 5];
            Arrays.fill(out, -7);

            int end = HybridDecoder.decode(data, 3, 3 + encoded.length, bitWidth, out, count);

            assertThat(Arrays.copyOf(out, count)).as("%d values", count).isEqualTo(values);
            assertThat(out[count]).isEqualTo(-7);
            assertThat(end).isLessThanOrEqualTo(3 + encoded.length);
        }
    }

    @Test
    void decodesFewerValuesThanTheRunsHold() throws Exception {
        int[] values = values(5, 1000, 3);
        byte[] encoded = encode(5, values);
        int[] out = new int[300];

        HybridDecoder.decode(encoded, 0, encoded.length, 5, out, 300);

        assertThat(out).isEqualTo(Arrays.copyOf(values, 300));
    }

    @Test
    void runsEndingBeforeTheValuesAreAnError() throws Exception {
        int[] values = values(9, 1000, 5);
        byte[] encoded = encode(9, values);
        // (a cut into the last group's padding alone is no error: no value is missing)
        for (int cut : new int[] {0, 1, encoded.length / 3, encoded.length / 2}) {
            assertThatThrownBy(() -> HybridDecoder.decode(encoded, 0, cut, 9, new int[1000], 1000))
                    .as("cut at %d", cut)
                    .isInstanceOf(ParquetDecodingException.class)
                    .hasMessageContaining("of 1000 values");
        }
        // more values asked than encoded: the runs end first
        assertThatThrownBy(
                        () ->
                                HybridDecoder.decode(
                                        encoded, 0, encoded.length, 9, new int[2000], 2000))
                .isInstanceOf(ParquetDecodingException.class);
    }

    @Test
    void zeroLengthRunsAndBadBitWidthsAreErrors() {
        byte[] zeroRun = {0, 1}; // RLE header of length 0
        assertThatThrownBy(() -> HybridDecoder.decode(zeroRun, 0, 2, 1, new int[4], 4))
                .isInstanceOf(ParquetDecodingException.class);
        byte[] endlessHeader = {-1, -1, -1, -1, -1, -1, 1};
        assertThatThrownBy(() -> HybridDecoder.decode(endlessHeader, 0, 7, 1, new int[4], 4))
                .isInstanceOf(ParquetDecodingException.class);
        assertThatThrownBy(() -> HybridDecoder.decode(new byte[8], 0, 8, 33, new int[1], 1))
                .isInstanceOf(ParquetDecodingException.class)
                .hasMessageContaining("bit width 33");
        assertThatThrownBy(() -> HybridDecoder.decode(new byte[8], 0, 8, -1, new int[1], 1))
                .isInstanceOf(ParquetDecodingException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8}) // parquet-java's writer goes up to 8 bits
    void decodesTheDeprecatedBitPackedLevels(int bitWidth) throws Exception {
        int count = 1001;
        int[] values = values(bitWidth, count, bitWidth);
        BitPackingValuesWriter writer =
                new BitPackingValuesWriter(
                        (1 << bitWidth) - 1, 64, 1 << 20, HeapByteBufferAllocator.getInstance());
        for (int v : values) {
            writer.writeInteger(v);
        }
        byte[] encoded = writer.getBytes().toByteArray();
        int[] out = new int[count];

        int end = HybridDecoder.decodeBitPacked(encoded, 0, encoded.length, bitWidth, out, count);

        assertThat(out).isEqualTo(values);
        assertThat(end).isEqualTo((count * bitWidth + 7) / 8);
        assertThatThrownBy(
                        () ->
                                HybridDecoder.decodeBitPacked(
                                        encoded, 0, end - 1, bitWidth, out, count))
                .isInstanceOf(ParquetDecodingException.class);
    }
}
