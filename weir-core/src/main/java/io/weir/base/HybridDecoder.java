package io.weir.base;

import org.apache.parquet.io.ParquetDecodingException;

import java.util.Arrays;

/**
 * Decodes Parquet's RLE / bit-packed hybrid encoding (definition levels, dictionary ids, boolean
 * values) into an int array, a whole page at a time: one tight loop per run instead of a virtual
 * call per value.
 */
final class HybridDecoder {
    private HybridDecoder() {}

    /**
     * Decodes {@code count} values of {@code bitWidth} bits from {@code data[from, to)} into {@code
     * out[0, count)} and returns the position after the last run read. Fails with a {@link
     * ParquetDecodingException} if the runs end before {@code count} values.
     */
    static int decode(byte[] data, int from, int to, int bitWidth, int[] out, int count) {
        if (bitWidth < 0 || bitWidth > 32) {
            throw new ParquetDecodingException("Invalid bit width " + bitWidth);
        }
        int bytesPerRleValue = (bitWidth + 7) >>> 3;
        int p = from;
        int n = 0;
        while (n < count) {
            int header = 0;
            int shift = 0;
            int b;
            do {
                if (p >= to || shift > 28) {
                    throw truncated(count, n);
                }
                b = data[p++];
                header |= (b & 0x7F) << shift;
                shift += 7;
            } while (b < 0);
            if ((header & 1) == 0) {
                int runLength = header >>> 1;
                if (runLength == 0 || to - p < bytesPerRleValue) {
                    throw truncated(count, n);
                }
                int value = 0;
                for (int i = 0; i < bytesPerRleValue; i++) {
                    value |= (data[p++] & 0xFF) << (8 * i);
                }
                int m = Math.min(runLength, count - n);
                Arrays.fill(out, n, n + m, value);
                n += m;
            } else {
                long groupBytes = (long) (header >>> 1) * bitWidth; // 8 values per group
                int m = (int) Math.min((long) (header >>> 1) * 8, count - n);
                long needed = ((long) m * bitWidth + 7) >>> 3;
                if (m == 0 || needed > to - p) {
                    throw truncated(count, n);
                }
                unpack(data, p, bitWidth, out, n, m);
                n += m;
                p += (int) Math.min(groupBytes, to - p); // a last group may lack its padding
            }
        }
        return p;
    }

    /** Unpacks {@code m} values of {@code bitWidth} bits, least significant bit first. */
    private static void unpack(byte[] data, int p, int bitWidth, int[] out, int n, int m) {
        long mask = (1L << bitWidth) - 1;
        long buffer = 0;
        int bits = 0;
        for (int i = n, end = n + m; i < end; i++) {
            while (bits < bitWidth) {
                buffer |= (long) (data[p++] & 0xFF) << bits;
                bits += 8;
            }
            out[i] = (int) (buffer & mask);
            buffer >>>= bitWidth;
            bits -= bitWidth;
        }
    }

    /**
     * Decodes {@code count} levels of the deprecated BIT_PACKED encoding (most significant bit
     * first, no run headers) and returns the position after them.
     */
    static int decodeBitPacked(byte[] data, int from, int to, int bitWidth, int[] out, int count) {
        long needed = ((long) count * bitWidth + 7) >>> 3;
        if (bitWidth < 0 || bitWidth > 32 || needed > to - from) {
            throw new ParquetDecodingException(
                    "BIT_PACKED levels need " + needed + " bytes, the page has " + (to - from));
        }
        long bit = (long) from * 8;
        for (int i = 0; i < count; i++) {
            int value = 0;
            for (int k = 0; k < bitWidth; k++, bit++) {
                int b = data[(int) (bit >>> 3)] >>> (7 - (int) (bit & 7));
                value = (value << 1) | (b & 1);
            }
            out[i] = value;
        }
        return from + (int) needed;
    }

    private static ParquetDecodingException truncated(int count, int decoded) {
        return new ParquetDecodingException(
                "RLE/bit-packed runs end after " + decoded + " of " + count + " values");
    }
}
