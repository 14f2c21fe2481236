package io.weir.expressions;

import java.util.Objects;

/** TRUE where the child is FALSE, FALSE where it is TRUE, UNKNOWN where it is UNKNOWN. */
public record Not(Expression child) implements Expression {
    public Not {
        Objects.requireNonNull(child, "child");
    }

    @Override
    public String toString() {
        String inner = child.toString();
        return child instanceof And || child instanceof Or ? "NOT " + inner : "NOT (" + inner + ")";
    }
}
