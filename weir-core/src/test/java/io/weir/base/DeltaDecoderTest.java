package io.weir.base;

import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.io.ParquetDecodingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The delta decoder against parquet-java's DELTA_BINARY_PACKED writers, as the model. */
class DeltaDecoderTest {
    private static final int[] COUNTS = {0, 1, 2, 31, 32, 33, 127, 128, 129, 1000, 5003};

    /** Value patterns: sorted keys, small numbers, constants, extremes, random bits. */
    static long[] values(int pattern, int count, int width, long seed) {
        Random random = new Random(seed);
        long[] values = new long[count];
        long v = random.nextInt(1000) - 500;
        for (int i = 0; i < count; i++) {
            values[i] =
                    switch (pattern) {
                        case 0 -> v += 1 + random.nextInt(8); // keys in key order
                        case 1 -> random.nextInt(1_000_000_000); // metrics of BENCHMARK.md
                        case 2 -> 42; // one value: deltas of 0 bits
                        case 3 -> i % 2 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE; // wrapping deltas
                        case 4 -> random.nextLong(); // no pattern: full-width deltas
                        default -> v -= random.nextInt(3); // descending
                    };
            if (width == 32) {
                values[i] = (int) values[i];
            }
        }
        return values;
    }

    static byte[] encode(long[] values, int width, int blockSize, int miniblocks) throws Exception {
        ValuesWriter writer =
                width == 32
                        ? new DeltaBinaryPackingValuesWriterForInteger(
                                blockSize, miniblocks, 64, 1 << 20, new HeapByteBufferAllocator())
                        : new DeltaBinaryPackingValuesWriterForLong(
                                blockSize, miniblocks, 64, 1 << 20, new HeapByteBufferAllocator());
        for (long v : values) {
            if (width == 32) {
                writer.writeInteger((int) v);
            } else {
                writer.writeLong(v);
            }
        }
        byte[] bytes = writer.getBytes().toByteArray();
        writer.close();
        return bytes;
    }

    @ParameterizedTest
    @ValueSource(ints = {32, 64})
    void decodesWhatParquetJavaEncodes(int width) throws Exception {
        DeltaDecoder decoder = new DeltaDecoder("c", width);
        for (int pattern = 0; pattern < 6; pattern++) {
            for (int count : COUNTS) {
                // parquet-java's default layout, and blocks of 256 in 2 miniblocks of 128
                for (int[] layout : new int[][] {{128, 4}, {256, 2}}) {
                    long[] values = values(pattern, count, width, 31L * count + pattern);
                    byte[] encoded = encode(values, width, layout[0], layout[1]);
                    // inside a larger array, with bytes before and after that must not be read
                    byte[] data = new byte[encoded.length + 10];
                    Arrays.fill(data, (byte) 0x5A);
                    System.arraycopy(encoded, 0, data, 3, encoded.length);
                    long[] out = new long[count + 2];

                    int end = decoder.decode(data, 3, 3 + encoded.length, out, count);

                    assertThat(end).isEqualTo(3 + encoded.length);
                    long[] decoded = Arrays.copyOf(out, count);
                    if (width == 32) {
                        for (int i = 0; i < count; i++) {
                            decoded[i] = (int) decoded[i];
                        }
                    }
                    assertThat(decoded)
                            .as("pattern %d, %d values, layout %s", pattern, count, layout[0])
                            .containsExactly(values);
                }
            }
        }
    }

    /**
     * A page cut anywhere fails, unless only padding after the last value is missing (at most a
     * miniblock's: 32 values of 30 bits here): then the values are exactly those written.
     */
    @Test
    void aPageCutShortFailsOrLacksOnlyPadding() throws Exception {
        long[] values = values(1, 300, 64, 5);
        byte[] encoded = encode(values, 64, 128, 4);
        DeltaDecoder decoder = new DeltaDecoder("c", 64);
        int firstRead = -1;
        for (int length = 0; length < encoded.length; length++) {
            long[] out = new long[values.length];
            try {
                decoder.decode(encoded, 0, length, out, values.length);
                assertThat(out).as("cut at %d", length).containsExactly(values);
                firstRead = firstRead < 0 ? length : firstRead;
            } catch (ParquetDecodingException e) {
                assertThat(firstRead).as("a failure after a read at %d", firstRead).isNegative();
                assertThat(e).hasMessageStartingWith("Page of c has DELTA_BINARY_PACKED values");
            }
        }
        assertThat(firstRead).isBetween(encoded.length - 32 * 31 / 8, encoded.length - 1);
    }

    @Test
    void malformedHeadersAndWidthsAreNamed() throws Exception {
        DeltaDecoder longs = new DeltaDecoder("col", 64);
        byte[] four = encode(new long[] {1, 2, 3, 4}, 64, 128, 4);
        assertThatThrownBy(() -> longs.decode(four, 0, four.length, new long[5], 5))
                .isInstanceOf(ParquetDecodingException.class)
                .hasMessage(
                        "Page of col has DELTA_BINARY_PACKED values with 4 values where the"
                                + " page's levels have 5");

        byte[] badBlock = {100, 4, 1, 2}; // a block of 100 values
        assertThatThrownBy(() -> longs.decode(badBlock, 0, badBlock.length, new long[1], 1))
                .hasMessage(
                        "Page of col has DELTA_BINARY_PACKED values with a block of 100 values in 4"
                                + " miniblocks (blocks must be multiples of 128 values, miniblocks"
                                + " of 32)");

        // 128 values in 4 miniblocks, 2 values, first 0, min delta 0, widths 65/33
        byte[] wide = {(byte) 0x80, 1, 4, 2, 0, 0, 65, 0, 0, 0};
        assertThatThrownBy(() -> longs.decode(wide, 0, wide.length, new long[2], 2))
                .hasMessage(
                        "Page of col has DELTA_BINARY_PACKED values with a miniblock of 65-bit"
                                + " values");
        byte[] wideInt = {(byte) 0x80, 1, 4, 2, 0, 0, 33, 0, 0, 0};
        assertThatThrownBy(
                        () ->
                                new DeltaDecoder("i", 32)
                                        .decode(wideInt, 0, wideInt.length, new long[2], 2))
                .hasMessage(
                        "Page of i has DELTA_BINARY_PACKED values with a miniblock of 33-bit"
                                + " values");

        byte[] endless = {(byte) 0x80, (byte) 0x80, (byte) 0x80};
        assertThatThrownBy(() -> longs.decode(endless, 0, endless.length, new long[1], 1))
                .hasMessage(
                        "Page of col has DELTA_BINARY_PACKED values with a block size cut short");
    }
}
