package io.weir.expressions;

import io.weir.data.BinaryRow;

import java.util.function.Predicate;

/** TRUE or FALSE for every row. */
enum BoundConstant implements BoundNode {
    TRUE,
    FALSE;

    static BoundConstant of(boolean value) {
        return value ? TRUE : FALSE;
    }

    @Override
    public boolean test(BinaryRow row) {
        return this == TRUE;
    }

    @Override
    public boolean mightMatch(Predicate<BoundPredicate> predicateMightMatch) {
        return this == TRUE;
    }

    @Override
    public String toString() {
        return this == TRUE ? "true" : "false";
    }
}
