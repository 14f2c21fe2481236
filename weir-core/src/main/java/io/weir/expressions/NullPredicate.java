package io.weir.expressions;

import io.weir.data.BinaryRow;
import io.weir.types.Field;

import java.util.List;

/** IS NULL and IS NOT NULL, for any type: never UNKNOWN. */
final class NullPredicate extends BoundPredicate {
    private final boolean isNull;

    NullPredicate(Operation op, int pos, Field field) {
        super(op, pos, field, List.of());
        this.isNull = op == Operation.IS_NULL;
    }

    @Override
    public boolean test(BinaryRow row) {
        return row.isNullAt(pos) == isNull;
    }

    @Override
    boolean mightMatch(ColumnBounds bounds) {
        return isNull ? bounds.mayHaveNull() : bounds.mayHaveNonNull();
    }
}
