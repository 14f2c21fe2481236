package io.weir.base;

import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link IntegerDeltaWriter} against parquet-java's DELTA_BINARY_PACKED writers: the same pages,
 * byte for byte (the padding of a page's last miniblock included), and the same buffered size after
 * every value, over pages of every length around the block and miniblock sizes, written one after
 * the other on one writer of each; and every page decodes to its values.
 */
class IntegerDeltaWriterTest {
    /** Pages of these many values, in this order, on the same writers. */
    private static final int[] PAGES = {1, 33, 0, 31, 32, 127, 128, 129, 1000, 2, 5003, 255, 97};

    @ParameterizedTest
    @ValueSource(ints = {32, 64})
    void writesParquetJavasPages(int width) throws IOException {
        for (int pattern = 0; pattern < 6; pattern++) {
            // Pages that outgrow the first array, and pages that fit.
            IntegerDeltaWriter ours =
                    new IntegerDeltaWriter(width == 64, pattern % 2 == 0 ? 64 : 1 << 20);
            ValuesWriter theirs =
                    width == 32
                            ? new DeltaBinaryPackingValuesWriterForInteger(
                                    64, 1 << 20, new HeapByteBufferAllocator())
                            : new DeltaBinaryPackingValuesWriterForLong(
                                    64, 1 << 20, new HeapByteBufferAllocator());
            for (int p = 0; p < PAGES.length; p++) {
                long[] values =
                        DeltaDecoderTest.values(pattern, PAGES[p], width, 100L * pattern + p);
                for (long v : values) {
                    if (width == 32) {
                        ours.writeInteger((int) v);
                        theirs.writeInteger((int) v);
                    } else {
                        ours.writeLong(v);
                        theirs.writeLong(v);
                    }
                    assertThat(ours.getBufferedSize()).isEqualTo(theirs.getBufferedSize());
                }
                byte[] page = ours.getBytes().toByteArray();
                assertThat(page)
                        .as("pattern %d, page %d of %d values", pattern, p, values.length)
                        .isEqualTo(theirs.getBytes().toByteArray());
                long[] decoded = new long[values.length];
                new DeltaDecoder("c", width).decode(page, 0, page.length, decoded, values.length);
                if (width == 32) {
                    // The decoder's sums wrap at 64 bits: an INT32 value is their low 32.
                    for (int i = 0; i < decoded.length; i++) {
                        decoded[i] = (int) decoded[i];
                    }
                }
                assertThat(decoded).isEqualTo(values);
                ours.reset();
                theirs.reset();
            }
            assertThat(ours.getEncoding()).isEqualTo(Encoding.DELTA_BINARY_PACKED);
        }
    }

    @Test
    void keepsItsArrayAcrossFiles() throws IOException {
        // Pages of a megabyte: the array comes from LargeArrays and goes back on close, for the
        // next file's writer.
        LargeArrays.clear();
        IntegerDeltaWriter writer = new IntegerDeltaWriter(true, 1 << 20);
        Random random = new Random(5);
        for (int i = 0; i < 100_000; i++) {
            writer.writeLong(random.nextLong()); // deltas of 64 bits
        }
        byte[] page = writer.getBytes().toByteArray();
        assertThat(page.length).isGreaterThan(100_000 * Long.BYTES);
        // It started with the smallest array kept and doubled, giving back each it outgrew.
        long size = writer.getAllocatedSize();
        assertThat(LargeArrays.keptBytes()).isEqualTo(size - LargeArrays.MIN_SIZE);
        writer.close();
        assertThat(LargeArrays.keptBytes()).isEqualTo(2 * size - LargeArrays.MIN_SIZE);
        IntegerDeltaWriter next = new IntegerDeltaWriter(true, 1 << 20);
        assertThat(next.getAllocatedSize()).isEqualTo(LargeArrays.MIN_SIZE);
        assertThat(LargeArrays.keptBytes()).isEqualTo(2 * size - 2 * LargeArrays.MIN_SIZE);
        next.close();
        LargeArrays.clear();
    }

    @Test
    void packsEveryWidthFromTheLeastSignificantBit() {
        long[] values = new long[IntegerDeltaWriter.MINIBLOCK_VALUES];
        for (int width = 0; width <= 64; width++) {
            for (int i = 0; i < values.length; i++) {
                // Bits above the width too: only the low ones are packed.
                values[i] = 0x9E3779B97F4A7C15L * (i + 1) + width;
            }
            byte[] out = new byte[4 * 64 + 8];
            Arrays.fill(out, (byte) 0x5A);
            int end = IntegerDeltaWriter.pack32(values, 0, width, out, 3);
            assertThat(end).isEqualTo(3 + 4 * width);
            for (int i = 0; i < values.length; i++) {
                long expected = width == 64 ? values[i] : values[i] & ((1L << width) - 1);
                assertThat(bitsAt(out, 3, i * width, width))
                        .as("width %d, value %d", width, i)
                        .isEqualTo(expected);
            }
            assertThat(out[end]).isEqualTo((byte) 0x5A);
        }
    }

    @Test
    void refusesTheOtherWidth() {
        assertThatThrownBy(() -> new IntegerDeltaWriter(true, 64).writeInteger(1))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("An INT64 column takes longs");
        assertThatThrownBy(() -> new IntegerDeltaWriter(false, 64).writeLong(1))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("An INT32 column takes ints");
    }

    /** The {@code width} bits from bit {@code bit} on, least significant first. */
    private static long bitsAt(byte[] bytes, int offset, int bit, int width) {
        long value = 0;
        for (int b = 0; b < width; b++) {
            int at = bit + b;
            if ((bytes[offset + at / 8] >>> (at % 8) & 1) != 0) {
                value |= 1L << b;
            }
        }
        return value;
    }
}
