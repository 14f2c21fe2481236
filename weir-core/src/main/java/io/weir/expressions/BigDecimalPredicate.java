package io.weir.expressions;

import io.weir.data.BinaryRow;
import io.weir.types.Field;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

/**
 * A predicate on DECIMAL(p &gt; 18): compares unscaled values at the column's scale. Reading the
 * value allocates a BigInteger (the only kind that does).
 */
final class BigDecimalPredicate extends OrderedPredicate {
    private final BigInteger[] values;

    BigDecimalPredicate(Operation op, int pos, Field field, List<Object> literals) {
        super(op, pos, field, literals);
        this.values = new BigInteger[literals.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (BigInteger) Literals.toDomain(literals.get(i), field.type());
        }
    }

    private BigInteger read(BinaryRow row) {
        long slot = row.getLong(pos);
        return new BigInteger(row.bytes(), row.offset() + (int) (slot >>> 32), (int) slot);
    }

    @Override
    int compareRow(BinaryRow row, int i) {
        return read(row).compareTo(values[i]);
    }

    @Override
    int compareBound(Object bound, int i) {
        return ((BigInteger) bound).compareTo(values[i]);
    }

    @Override
    boolean contains(BinaryRow row) {
        return Arrays.binarySearch(values, read(row)) >= 0;
    }
}
