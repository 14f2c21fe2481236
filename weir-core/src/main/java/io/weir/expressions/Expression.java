package io.weir.expressions;

import io.weir.types.RowType;

import java.io.Serializable;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A filter over the columns of a row, by column name: an immutable tree of {@link
 * UnboundPredicate}s combined with {@link And}, {@link Or} and {@link Not}. Build it with {@link
 * Expressions}; {@link #bind} it to a row type to evaluate it. Equal trees are equal values.
 */
public sealed interface Expression extends Serializable
        permits Constant, And, Or, Not, UnboundPredicate {

    /**
     * Resolves the columns against {@code rowType} and converts the literals to the columns' types,
     * once, for evaluation on rows and on metadata.
     *
     * @throws io.weir.exceptions.ValidationException naming the column if a column does not exist
     *     or a literal does not fit its column's type
     */
    default BoundExpression bind(RowType rowType) {
        return new BoundExpression(this, rowType, Binder.bind(this, rowType));
    }

    /** The names of the columns this expression references, in order of first appearance. */
    default Set<String> columns() {
        Set<String> columns = new LinkedHashSet<>();
        collectColumns(this, columns);
        return columns;
    }

    private static void collectColumns(Expression e, Set<String> into) {
        if (e instanceof UnboundPredicate p) {
            into.add(p.column());
        } else if (e instanceof And and) {
            collectColumns(and.left(), into);
            collectColumns(and.right(), into);
        } else if (e instanceof Or or) {
            collectColumns(or.left(), into);
            collectColumns(or.right(), into);
        } else if (e instanceof Not not) {
            collectColumns(not.child(), into);
        }
    }
}
