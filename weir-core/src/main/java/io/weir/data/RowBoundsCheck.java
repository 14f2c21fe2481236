package io.weir.data;

import io.weir.types.DataType;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;

import java.util.Arrays;

/**
 * Checks that a {@link BinaryRow} read from a file can be decoded as its row type: every
 * variable-length value lies inside the row, after its fixed part, and a timestamp's nanosecond
 * field is in range. A row that passes never makes a getter read outside the row (and so never
 * return bytes of a neighbouring row) or throw; one that fails is corrupt.
 *
 * <p>A file's checksum catches damage on disk; this catches bytes that a checksum cannot: rows that
 * a faulty writer framed correctly. It costs one slot read per non-null variable-length field.
 */
public final class RowBoundsCheck {
    private static final long INLINE_MARK = 0x80L << 56;
    private static final int MAX_DECIMAL_BYTES = 16;

    private enum Kind {
        BYTES,
        BIG_DECIMAL,
        BIG_TIMESTAMP
    }

    private final int fixedPartSize;
    private final int[] positions;
    private final Kind[] kinds;

    private RowBoundsCheck(int arity, int[] positions, Kind[] kinds) {
        this.fixedPartSize = BinaryRow.fixedPartSize(arity);
        this.positions = positions;
        this.kinds = kinds;
    }

    public static RowBoundsCheck of(RowType rowType) {
        int[] positions = new int[rowType.size()];
        Kind[] kinds = new Kind[rowType.size()];
        int n = 0;
        for (int pos = 0; pos < rowType.size(); pos++) {
            DataType type = rowType.type(pos);
            Kind kind =
                    switch (type.root()) {
                        case CHAR, VARCHAR, BINARY, VARBINARY -> Kind.BYTES;
                        case DECIMAL ->
                                type.precision() > DataType.MAX_COMPACT_DECIMAL_PRECISION
                                        ? Kind.BIG_DECIMAL
                                        : null;
                        case TIMESTAMP, TIMESTAMP_LTZ ->
                                type.precision() > DataType.MAX_COMPACT_TIMESTAMP_PRECISION
                                        ? Kind.BIG_TIMESTAMP
                                        : null;
                        default -> null;
                    };
            if (kind != null) {
                positions[n] = pos;
                kinds[n++] = kind;
            }
        }
        return new RowBoundsCheck(
                rowType.size(), Arrays.copyOf(positions, n), Arrays.copyOf(kinds, n));
    }

    /**
     * Returns null if every field of {@code row} can be read, else what is wrong. The row's size
     * must be at least its fixed part's (the caller checks its framing).
     */
    public String check(BinaryRow row) {
        byte[] bytes = row.bytes();
        int size = row.sizeInBytes();
        for (int i = 0; i < positions.length; i++) {
            int pos = positions[i];
            if (row.isNullAt(pos)) {
                continue;
            }
            long slot = LittleEndian.getLong(bytes, row.fieldOffset(pos));
            long start = slot >>> 32;
            long length = slot & 0xFFFFFFFFL;
            switch (kinds[i]) {
                case BYTES -> {
                    if ((slot & INLINE_MARK) != 0) {
                        long inline = (slot >>> 56) & 0x7F;
                        if (inline > 7) {
                            return problem(pos, "an inline length of " + inline + " (at most 7)");
                        }
                        continue;
                    }
                }
                case BIG_DECIMAL -> {
                    if (length == 0 || length > MAX_DECIMAL_BYTES) {
                        return problem(pos, "a decimal of " + length + " bytes (1 to 16)");
                    }
                }
                case BIG_TIMESTAMP -> {
                    if (length > 999_999) {
                        return problem(pos, "a nanosecond of millisecond of " + length);
                    }
                    length = 8; // the epoch millis in the variable part
                }
            }
            if (start < fixedPartSize || start + length > size) {
                return problem(
                        pos,
                        "a value of "
                                + length
                                + " bytes at "
                                + start
                                + ", outside the variable part ["
                                + fixedPartSize
                                + ", "
                                + size
                                + ")");
            }
        }
        return null;
    }

    private static String problem(int pos, String what) {
        return "field " + pos + " has " + what;
    }
}
