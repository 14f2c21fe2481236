package io.weir.base;

import io.weir.util.LittleEndian;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.ValuesWriter;

/**
 * DELTA_BINARY_PACKED values of an INT32 or INT64 column, byte for byte as parquet-java's {@code
 * DeltaBinaryPackingValuesWriterForInteger} and {@code ...ForLong} write them: blocks of 128 deltas
 * in 4 miniblocks of 32, each block a minimum delta, the 4 miniblocks' bit widths and the
 * miniblocks bit-packed from the least significant bit. The page goes into one array, kept across
 * pages and, through {@link LargeArrays}, across files (given back on {@link #close()}); its header
 * is written in front of the blocks when the page is taken. Without parquet-java's slab stream, and
 * the four-part concatenation of its page.
 *
 * <p>INT32 deltas wrap at 32 bits, as parquet-java's do: they and their minimum are computed in
 * {@code int} arithmetic, and packed as unsigned 32-bit patterns.
 *
 * <p>Byte for byte includes what readers skip: the last miniblock of a page is packed whole, its
 * slots past the last value holding what the block buffer held from earlier blocks, and the widths
 * of the miniblocks that a page's last block leaves empty are those of the block before, as in
 * parquet-java. Readers stop at the page's value count.
 */
final class IntegerDeltaWriter extends ValuesWriter {
    static final int BLOCK_VALUES = 128;
    static final int MINIBLOCKS = 4;
    static final int MINIBLOCK_VALUES = BLOCK_VALUES / MINIBLOCKS;

    /**
     * Room before the blocks for the page header: block size (2 bytes), miniblock count (1), value
     * count (at most 5) and first value (at most 10, zigzag).
     */
    private static final int HEADER_ROOM = 18;

    /** The most bytes one block takes: its minimum delta, its widths, 4 miniblocks of 64 bits. */
    private static final int MAX_BLOCK_BYTES = 10 + MINIBLOCKS + BLOCK_VALUES * Long.BYTES;

    private final boolean longValues;
    private final long[] deltas = new long[BLOCK_VALUES];
    private final int[] widths = new int[MINIBLOCKS];
    private final byte[] header = new byte[HEADER_ROOM];
    private int pending;
    private long minDelta;
    private long first;
    private long previous;
    private int valueCount;
    private byte[] buffer;
    private int end = HEADER_ROOM;

    /**
     * @param longValues INT64 (true) or INT32 (false)
     * @param pageSize the page size threshold
     */
    IntegerDeltaWriter(boolean longValues, int pageSize) {
        this.longValues = longValues;
        this.minDelta = longValues ? Long.MAX_VALUE : Integer.MAX_VALUE;
        // A page's room (pages end a little past the threshold: the column store checks sizes now
        // and then), or the smallest array LargeArrays keeps: it grows by arrays kept there too,
        // so that a wide table's many columns do not each hold a page's room from the start.
        long room = HEADER_ROOM + (long) pageSize + pageSize / 8 + MAX_BLOCK_BYTES;
        this.buffer = LargeArrays.take((int) Math.min(room, LargeArrays.MIN_SIZE));
    }

    @Override
    public void writeInteger(int v) {
        if (longValues) {
            throw new UnsupportedOperationException("An INT64 column takes longs");
        }
        add(v);
    }

    @Override
    public void writeLong(long v) {
        if (!longValues) {
            throw new UnsupportedOperationException("An INT32 column takes ints");
        }
        add(v);
    }

    private void add(long v) {
        if (valueCount++ == 0) {
            first = v;
            previous = v;
            return;
        }
        // An int's delta is an int: sign-extended here, it orders as parquet-java's int does.
        long delta = longValues ? v - previous : (long) ((int) v - (int) previous);
        previous = v;
        deltas[pending++] = delta;
        if (delta < minDelta) {
            minDelta = delta;
        }
        if (pending == BLOCK_VALUES) {
            flushBlock();
        }
    }

    private void flushBlock() {
        ensure(MAX_BLOCK_BYTES);
        long mask32 = longValues ? -1L : 0xFFFFFFFFL;
        for (int i = 0; i < pending; i++) {
            deltas[i] = (deltas[i] - minDelta) & mask32;
        }
        end = putZigZag(buffer, end, minDelta);
        int miniblocks = (pending + MINIBLOCK_VALUES - 1) / MINIBLOCK_VALUES;
        for (int m = 0; m < miniblocks; m++) {
            long or = 0;
            int to = Math.min((m + 1) * MINIBLOCK_VALUES, pending);
            for (int i = m * MINIBLOCK_VALUES; i < to; i++) {
                or |= deltas[i];
            }
            widths[m] = Long.SIZE - Long.numberOfLeadingZeros(or);
        }
        // Every miniblock's width, those of the miniblocks a short last block leaves empty as
        // they were in the block before (parquet-java's; readers skip them).
        for (int m = 0; m < MINIBLOCKS; m++) {
            buffer[end++] = (byte) widths[m];
        }
        for (int m = 0; m < miniblocks; m++) {
            end = pack32(deltas, m * MINIBLOCK_VALUES, widths[m], buffer, end);
        }
        pending = 0;
        minDelta = longValues ? Long.MAX_VALUE : Integer.MAX_VALUE;
    }

    /**
     * Packs 32 values of {@code width} bits (their low bits) from the least significant bit on:
     * {@code 4 × width} bytes. Returns the position after them.
     */
    static int pack32(long[] values, int from, int width, byte[] out, int at) {
        if (width == 0) {
            return at;
        }
        long mask = width == Long.SIZE ? -1L : (1L << width) - 1;
        long word = 0;
        int bits = 0;
        for (int i = from; i < from + MINIBLOCK_VALUES; i++) {
            long v = values[i] & mask;
            word |= v << bits;
            bits += width;
            if (bits >= Long.SIZE) {
                LittleEndian.putLong(out, at, word);
                at += Long.BYTES;
                bits -= Long.SIZE;
                // The high bits of v that did not fit (none if it ended on the word's last bit).
                word = bits == 0 ? 0 : v >>> (width - bits);
            }
        }
        // 32 × width bits end on a word's boundary or halfway through one.
        if (bits != 0) {
            LittleEndian.putInt(out, at, (int) word);
            at += Integer.BYTES;
        }
        return at;
    }

    private static int putUnsigned(byte[] out, int at, long v) {
        while ((v & ~0x7FL) != 0) {
            out[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[at++] = (byte) v;
        return at;
    }

    private static int putZigZag(byte[] out, int at, long v) {
        return putUnsigned(out, at, (v << 1) ^ (v >> 63));
    }

    private void ensure(int bytes) {
        if (buffer.length - end < bytes) {
            long wanted = Math.max((long) end + bytes, 2L * buffer.length);
            if (wanted > 1 << 30) {
                throw new IllegalStateException("Cannot buffer a Parquet page of more than 1 GiB");
            }
            byte[] grown = LargeArrays.take((int) wanted);
            System.arraycopy(buffer, 0, grown, 0, end);
            LargeArrays.give(buffer);
            buffer = grown;
        }
    }

    /**
     * The bytes of the blocks written, as parquet-java counts them: no header, no pending block.
     */
    @Override
    public long getBufferedSize() {
        return end - HEADER_ROOM;
    }

    /** The page: its header, then its blocks. Write no more values before {@link #reset()}. */
    @Override
    public BytesInput getBytes() {
        if (pending != 0) {
            flushBlock();
        }
        int length = putUnsigned(header, 0, BLOCK_VALUES);
        length = putUnsigned(header, length, MINIBLOCKS);
        length = putUnsigned(header, length, Integer.toUnsignedLong(valueCount));
        length = putZigZag(header, length, first);
        int start = HEADER_ROOM - length;
        System.arraycopy(header, 0, buffer, start, length);
        return BytesInput.from(buffer, start, end - start);
    }

    @Override
    public Encoding getEncoding() {
        return Encoding.DELTA_BINARY_PACKED;
    }

    @Override
    public void reset() {
        valueCount = 0;
        pending = 0;
        end = HEADER_ROOM;
        minDelta = longValues ? Long.MAX_VALUE : Integer.MAX_VALUE;
    }

    /** Gives the array back for another writer: no page of this one may be read after. */
    @Override
    public void close() {
        if (buffer != null) {
            LargeArrays.give(buffer);
            buffer = null;
        }
    }

    @Override
    public long getAllocatedSize() {
        return buffer == null ? 0 : buffer.length;
    }

    @Override
    public String memUsageString(String prefix) {
        return prefix + " DELTA_BINARY_PACKED " + end + " of " + getAllocatedSize() + " bytes";
    }
}
