package io.weir.expressions;

/** The expressions that are TRUE, respectively FALSE, for every row. */
public enum Constant implements Expression {
    TRUE,
    FALSE;

    @Override
    public String toString() {
        return this == TRUE ? "true" : "false";
    }
}
