package io.weir.expressions;

import io.weir.data.BinaryRow;
import io.weir.types.Field;

import java.util.Arrays;
import java.util.List;

/**
 * A predicate on CHAR, VARCHAR (as UTF-8), BINARY or VARBINARY: compares the row's bytes in place
 * with the literal's bytes in unsigned lexicographic order, which for UTF-8 is code point order (as
 * {@link io.weir.data.KeyFields} orders keys).
 */
final class BytesPredicate extends OrderedPredicate {
    private final byte[][] values;

    BytesPredicate(Operation op, int pos, Field field, List<Object> literals) {
        super(op, pos, field, literals);
        this.values = new byte[literals.size()][];
        for (int i = 0; i < values.length; i++) {
            values[i] = (byte[]) Literals.toDomain(literals.get(i), field.type());
        }
    }

    @Override
    int compareRow(BinaryRow row, int i) {
        int off = row.varDataOffset(pos);
        int len = row.varDataLength(pos);
        byte[] v = values[i];
        return Arrays.compareUnsigned(row.bytes(), off, off + len, v, 0, v.length);
    }

    @Override
    int compareBound(Object bound, int i) {
        return Arrays.compareUnsigned((byte[]) bound, values[i]);
    }

    @Override
    boolean testOther(BinaryRow row) {
        byte[] prefix = values[0];
        int off = row.varDataOffset(pos);
        boolean startsWith =
                row.varDataLength(pos) >= prefix.length
                        && Arrays.equals(
                                row.bytes(), off, off + prefix.length, prefix, 0, prefix.length);
        return switch (op) {
            case STARTS_WITH -> startsWith;
            case NOT_STARTS_WITH -> !startsWith;
            default -> super.testOther(row);
        };
    }

    /**
     * The values with a prefix form one interval of the byte order, and cutting values to the
     * prefix's length keeps their order; so a value with the prefix can only lie in [lower, upper]
     * if lower cut to that length is &lt;= prefix &lt;= upper cut to that length. All values have
     * the prefix if both bounds have it.
     */
    @Override
    boolean mightMatchOther(ColumnBounds bounds) {
        byte[] prefix = values[0];
        byte[] lower = (byte[]) bounds.lower();
        byte[] upper = (byte[]) bounds.upper();
        return switch (op) {
            case STARTS_WITH ->
                    (lower == null || compareCut(lower, prefix) <= 0)
                            && (upper == null || compareCut(upper, prefix) >= 0);
            case NOT_STARTS_WITH ->
                    lower == null
                            || upper == null
                            || !hasPrefix(lower, prefix)
                            || !hasPrefix(upper, prefix);
            default -> super.mightMatchOther(bounds);
        };
    }

    private static int compareCut(byte[] value, byte[] prefix) {
        int len = Math.min(value.length, prefix.length);
        return Arrays.compareUnsigned(value, 0, len, prefix, 0, prefix.length);
    }

    private static boolean hasPrefix(byte[] value, byte[] prefix) {
        return value.length >= prefix.length
                && Arrays.equals(value, 0, prefix.length, prefix, 0, prefix.length);
    }
}
