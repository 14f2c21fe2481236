package io.weir.expressions;

import io.weir.data.BinaryRow;
import io.weir.types.Field;
import io.weir.types.TypeRoot;

import java.util.Arrays;
import java.util.List;

/**
 * A predicate on FLOAT or DOUBLE, evaluated as Java's (and Flink's) primitive operators do, i.e.
 * IEEE 754: NaN is unordered (every comparison with NaN is FALSE, except {@code <>} which is TRUE)
 * and -0.0 equals 0.0. FLOAT values and literals compare as doubles (exact widening).
 */
final class DoublePredicate extends BoundPredicate {
    private final boolean isFloat;
    private final double value;
    private final double[] values;

    /**
     * @param literals Doubles; for IN and NOT IN sorted, distinct, without NaN (which equals
     *     nothing) and with -0.0 as 0.0, so that binary search finds equal values
     */
    DoublePredicate(Operation op, int pos, Field field, List<Object> literals) {
        super(op, pos, field, literals);
        this.isFloat = field.type().root() == TypeRoot.FLOAT;
        this.values = new double[literals.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (Double) literals.get(i);
        }
        this.value = values.length > 0 ? values[0] : Double.NaN;
    }

    @Override
    public boolean test(BinaryRow row) {
        if (row.isNullAt(pos)) {
            return false;
        }
        double v = isFloat ? row.getFloat(pos) : row.getDouble(pos);
        return switch (op) {
            case IS_NAN -> v != v;
            case NOT_NAN -> v == v;
            case EQ -> v == value;
            case NOT_EQ -> v != value;
            case LT -> v < value;
            case LT_EQ -> v <= value;
            case GT -> v > value;
            case GT_EQ -> v >= value;
            case IN -> contains(v);
            case NOT_IN -> !contains(v);
            default -> throw new IllegalStateException("Unsupported operation " + op);
        };
    }

    private boolean contains(double v) {
        // v == 0.0 also holds for -0.0, which the literals hold as 0.0
        return v == v && Arrays.binarySearch(values, v == 0.0 ? 0.0 : v) >= 0;
    }

    /**
     * NaN bounds say nothing (whether a writer counts NaN in min/max is not part of the contract),
     * and a file may hold NaN values that its bounds leave out. NaN is FALSE for every order
     * comparison and equality, so bounds still rule those out; but NaN is TRUE for {@code <>}, NOT
     * IN and IS NAN, which therefore always might match.
     */
    @Override
    boolean mightMatch(ColumnBounds bounds) {
        if (!bounds.mayHaveNonNull()) {
            return false;
        }
        double lower = bound(bounds.lower(), Double.NEGATIVE_INFINITY);
        double upper = bound(bounds.upper(), Double.POSITIVE_INFINITY);
        return switch (op) {
            case LT -> lower < value;
            case LT_EQ -> lower <= value;
            case GT -> upper > value;
            case GT_EQ -> upper >= value;
            case EQ -> lower <= value && value <= upper;
            case IN -> someLiteralWithin(lower, upper);
            default -> true;
        };
    }

    private boolean someLiteralWithin(double lower, double upper) {
        for (double v : values) {
            if (lower <= v && v <= upper) {
                return true;
            }
        }
        return false;
    }

    private static double bound(Object bound, double unbounded) {
        if (bound == null) {
            return unbounded;
        }
        double d = (Double) bound;
        return Double.isNaN(d) ? unbounded : d;
    }
}
