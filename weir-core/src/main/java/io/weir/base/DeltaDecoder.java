package io.weir.base;

import org.apache.parquet.column.values.bitpacking.BytePackerForLong;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.io.ParquetDecodingException;

import java.util.Arrays;

/**
 * Decodes a page of DELTA_BINARY_PACKED values (the Parquet specification's encoding of INT32 and
 * INT64 as deltas from a first value, bit-packed in miniblocks) into a {@code long[]} at once, as
 * {@link HybridDecoder} does dictionary ids.
 *
 * <p>Every length, width and count is checked against the page: a malformed page fails with a
 * {@link ParquetDecodingException}, never a silent wrong value. The sums wrap, as the writer's
 * deltas did: an INT32 column's values are the low 32 bits of the result.
 */
final class DeltaDecoder {
    /**
     * The largest miniblock read. The specification sets none; writers use 32 (parquet-java, Weir)
     * or 64 values, and a bound keeps a malformed header from allocating without limit.
     */
    static final int MAX_MINIBLOCK_VALUES = 1 << 14;

    private static final BytePackerForLong[] PACKERS = new BytePackerForLong[65];

    static {
        for (int w = 0; w <= 64; w++) {
            PACKERS[w] = Packer.LITTLE_ENDIAN.newBytePackerForLong(w);
        }
    }

    private final String column;
    private final int maxWidth;
    private long[] unpacked = new long[32];
    private byte[] padded = new byte[32 * 8];
    private byte[] widths = new byte[4];
    private byte[] data;
    private int at;
    private int end;

    /**
     * @param column the column, for errors
     * @param maxWidth the physical type's width in bits: 32 for INT32, 64 for INT64
     */
    DeltaDecoder(String column, int maxWidth) {
        this.column = column;
        this.maxWidth = maxWidth;
    }

    /**
     * Decodes the {@code count} values of the page's value bytes {@code data[from, to)} into {@code
     * out}, which must hold them. Returns the position after the last byte read.
     */
    int decode(byte[] data, int from, int to, long[] out, int count) {
        this.data = data;
        this.at = from;
        this.end = to;
        long blockSize = readUnsigned("block size");
        long miniblocks = readUnsigned("miniblock count");
        long total = readUnsigned("value count");
        if (blockSize <= 0
                || blockSize % 128 != 0
                || miniblocks <= 0
                || blockSize % miniblocks != 0
                || (blockSize / miniblocks) % 32 != 0) {
            throw corrupt(
                    "a block of "
                            + blockSize
                            + " values in "
                            + miniblocks
                            + " miniblocks (blocks must be multiples of 128 values, miniblocks of"
                            + " 32)");
        }
        int miniblockValues = (int) Math.min(blockSize / miniblocks, Integer.MAX_VALUE);
        if (miniblockValues > MAX_MINIBLOCK_VALUES) {
            throw corrupt(
                    "miniblocks of "
                            + miniblockValues
                            + " values (at most "
                            + MAX_MINIBLOCK_VALUES
                            + " are read)");
        }
        if (total != count) {
            throw corrupt(total + " values where the page's levels have " + count);
        }
        long value = zigZag(readUnsigned("first value"));
        if (count == 0) {
            return at;
        }
        int perBlock = (int) miniblocks;
        if (widths.length < perBlock) {
            widths = new byte[perBlock];
        }
        if (unpacked.length < miniblockValues) {
            unpacked = new long[miniblockValues];
            padded = new byte[miniblockValues * 8];
        }
        out[0] = value;
        int n = 1;
        while (n < count) {
            long minDelta = zigZag(readUnsigned("minimum delta"));
            if (end - at < perBlock) {
                throw corrupt("a block header cut short");
            }
            System.arraycopy(data, at, widths, 0, perBlock);
            at += perBlock;
            for (int m = 0; m < perBlock && n < count; m++) {
                int width = widths[m] & 0xFF;
                if (width > maxWidth) {
                    throw corrupt("a miniblock of " + width + "-bit values");
                }
                int values = Math.min(miniblockValues, count - n);
                unpack(width, miniblockValues, values);
                for (int i = 0; i < values; i++) {
                    value += minDelta + unpacked[i];
                    out[n++] = value;
                }
            }
        }
        return at;
    }

    /**
     * Unpacks a miniblock of {@code width}-bit values into {@link #unpacked}. A full miniblock's
     * bytes are there even when only {@code needed} of its values count (the writer pads it); a
     * last miniblock cut after its values is read from a zero-padded copy.
     */
    private void unpack(int width, int miniblockValues, int needed) {
        int bytes = miniblockValues / 8 * width;
        byte[] from = data;
        int start = at;
        if (end - at < bytes) {
            int neededBytes = (int) (((long) needed * width + 7) / 8);
            if (end - at < neededBytes) {
                throw corrupt("a miniblock cut short");
            }
            Arrays.fill(padded, 0, bytes, (byte) 0);
            System.arraycopy(data, at, padded, 0, end - at);
            from = padded;
            start = 0;
            at = end;
        } else {
            at += bytes;
        }
        if (width == 0) {
            // parquet-java's packer of 0 bits leaves its output as it was
            Arrays.fill(unpacked, 0, needed, 0L);
            return;
        }
        BytePackerForLong packer = PACKERS[width];
        for (int i = 0; i < needed; i += 8) {
            packer.unpack8Values(from, start + i / 8 * width, unpacked, i);
        }
    }

    private long readUnsigned(String what) {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at >= end) {
                throw corrupt("a " + what + " cut short");
            }
            byte b = data[at++];
            result |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return result;
            }
        }
        throw corrupt("a " + what + " longer than 10 bytes");
    }

    private static long zigZag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    private ParquetDecodingException corrupt(String what) {
        return new ParquetDecodingException(
                "Page of " + column + " has DELTA_BINARY_PACKED values with " + what);
    }
}
