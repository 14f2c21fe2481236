package io.weir.expressions;

import java.util.Objects;

/** TRUE where either side is TRUE, FALSE where both are FALSE, otherwise UNKNOWN. */
public record Or(Expression left, Expression right) implements Expression {
    public Or {
        Objects.requireNonNull(left, "left");
        Objects.requireNonNull(right, "right");
    }

    @Override
    public String toString() {
        return "(" + left + " OR " + right + ")";
    }
}
