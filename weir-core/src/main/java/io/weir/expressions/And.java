package io.weir.expressions;

import java.util.Objects;

/** TRUE where both sides are TRUE, FALSE where either is FALSE, otherwise UNKNOWN. */
public record And(Expression left, Expression right) implements Expression {
    public And {
        Objects.requireNonNull(left, "left");
        Objects.requireNonNull(right, "right");
    }

    @Override
    public String toString() {
        return "(" + left + " AND " + right + ")";
    }
}
