package io.weir.expressions;

import io.weir.data.BinaryRow;
import io.weir.types.Field;

import java.util.List;

/**
 * A predicate on a column whose values are totally ordered (every kind but DOUBLE): comparisons, IN
 * and NOT IN by binary search over the sorted literals, and bounds checks.
 */
abstract class OrderedPredicate extends BoundPredicate {
    final int count;

    OrderedPredicate(Operation op, int pos, Field field, List<Object> literals) {
        super(op, pos, field, literals);
        this.count = literals.size();
    }

    /** Compares the (non-null) value of the column in {@code row} with literal {@code i}. */
    abstract int compareRow(BinaryRow row, int i);

    /** Compares a bound in comparison form with literal {@code i}. */
    abstract int compareBound(Object bound, int i);

    /** Evaluates an operation other than comparisons, IN and NOT IN on a non-null value. */
    boolean testOther(BinaryRow row) {
        throw new IllegalStateException("Unsupported operation " + op + " on " + field);
    }

    /** Bounds check of an operation other than comparisons, IN and NOT IN. */
    boolean mightMatchOther(ColumnBounds bounds) {
        throw new IllegalStateException("Unsupported operation " + op + " on " + field);
    }

    @Override
    public boolean test(BinaryRow row) {
        if (row.isNullAt(pos)) {
            return false;
        }
        return switch (op) {
            case EQ -> compareRow(row, 0) == 0;
            case NOT_EQ -> compareRow(row, 0) != 0;
            case LT -> compareRow(row, 0) < 0;
            case LT_EQ -> compareRow(row, 0) <= 0;
            case GT -> compareRow(row, 0) > 0;
            case GT_EQ -> compareRow(row, 0) >= 0;
            case IN -> contains(row);
            case NOT_IN -> !contains(row);
            default -> testOther(row);
        };
    }

    /** Whether the non-null value in {@code row} is one of the (sorted, distinct) literals. */
    boolean contains(BinaryRow row) {
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = compareRow(row, mid);
            if (c == 0) {
                return true;
            } else if (c < 0) {
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        return false;
    }

    @Override
    boolean mightMatch(ColumnBounds bounds) {
        if (!bounds.mayHaveNonNull()) {
            return false; // every value is null: every comparison is UNKNOWN
        }
        Object lower = bounds.lower();
        Object upper = bounds.upper();
        return switch (op) {
            case LT -> lower == null || compareBound(lower, 0) < 0;
            case LT_EQ -> lower == null || compareBound(lower, 0) <= 0;
            case GT -> upper == null || compareBound(upper, 0) > 0;
            case GT_EQ -> upper == null || compareBound(upper, 0) >= 0;
            case EQ, IN -> someLiteralWithin(lower, upper);
            case NOT_EQ, NOT_IN -> !allValuesEqualALiteral(lower, upper);
            default -> mightMatchOther(bounds);
        };
    }

    private boolean someLiteralWithin(Object lower, Object upper) {
        for (int i = 0; i < count; i++) {
            if ((lower == null || compareBound(lower, i) <= 0)
                    && (upper == null || compareBound(upper, i) >= 0)) {
                return true;
            }
        }
        return false;
    }

    private boolean allValuesEqualALiteral(Object lower, Object upper) {
        if (lower == null || upper == null) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            if (compareBound(lower, i) == 0 && compareBound(upper, i) == 0) {
                return true;
            }
        }
        return false;
    }
}
