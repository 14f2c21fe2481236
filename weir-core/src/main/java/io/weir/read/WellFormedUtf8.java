package io.weir.read;

import java.io.ByteArrayOutputStream;

/**
 * The bytes of a BINARY or VARBINARY value as the text of a STRING (docs/format.md §6.9): UTF-8
 * with each maximal subpart of an ill-formed sequence replaced by U+FFFD, as the Unicode Standard
 * recommends (§3.9, "U+FFFD Substitution of Maximal Subparts") and Rust's {@code
 * String::from_utf8_lossy} does. Java's own decoder replaces some sequences differently (a
 * surrogate's three bytes by one U+FFFD), so it is not used; and a STRING must hold UTF-8, or a
 * Parquet file that a compaction writes from it cannot be read.
 */
final class WellFormedUtf8 {
    private static final byte[] REPLACEMENT = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

    private WellFormedUtf8() {}

    /** {@code bytes} itself if it is well-formed UTF-8, else a copy with the replacements. */
    static byte[] of(byte[] bytes) {
        int i = 0;
        while (i < bytes.length) {
            int n = wellFormedLength(bytes, i);
            if (n <= 0) {
                return replaced(bytes, i);
            }
            i += n;
        }
        return bytes;
    }

    private static byte[] replaced(byte[] bytes, int from) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + 8);
        out.write(bytes, 0, from);
        int i = from;
        while (i < bytes.length) {
            int n = wellFormedLength(bytes, i);
            if (n > 0) {
                out.write(bytes, i, n);
                i += n;
            } else {
                out.write(REPLACEMENT, 0, REPLACEMENT.length);
                i += -n;
            }
        }
        return out.toByteArray();
    }

    /**
     * The length of the well-formed character at {@code i}, or, negated, the length of the maximal
     * subpart of an ill-formed sequence there (at least 1): the longest prefix of a well-formed
     * sequence (Unicode Table 3-7), or the first byte alone.
     */
    private static int wellFormedLength(byte[] b, int i) {
        int lead = b[i] & 0xFF;
        if (lead < 0x80) {
            return 1;
        }
        int length;
        int secondLow = 0x80;
        int secondHigh = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0) {
                secondLow = 0xA0;
            } else if (lead == 0xED) {
                secondHigh = 0x9F;
            }
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0) {
                secondLow = 0x90;
            } else if (lead == 0xF4) {
                secondHigh = 0x8F;
            }
        } else {
            return -1; // 80..C1, F5..FF never begin a character
        }
        for (int k = 1; k < length; k++) {
            if (i + k >= b.length) {
                return -k;
            }
            int c = b[i + k] & 0xFF;
            int low = k == 1 ? secondLow : 0x80;
            int high = k == 1 ? secondHigh : 0xBF;
            if (c < low || c > high) {
                return -k;
            }
        }
        return length;
    }
}
