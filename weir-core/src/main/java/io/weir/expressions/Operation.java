package io.weir.expressions;

/** The operation of a {@link UnboundPredicate}: what it says about one column. */
public enum Operation {
    IS_NULL("IS NULL", 0),
    NOT_NULL("IS NOT NULL", 0),
    IS_NAN("IS NAN", 0),
    NOT_NAN("IS NOT NAN", 0),
    LT("<", 1),
    LT_EQ("<=", 1),
    GT(">", 1),
    GT_EQ(">=", 1),
    EQ("=", 1),
    NOT_EQ("<>", 1),
    IN("IN", -1),
    NOT_IN("NOT IN", -1),
    STARTS_WITH("STARTS WITH", 1),
    NOT_STARTS_WITH("NOT STARTS WITH", 1);

    private final String symbol;
    private final int operands;

    Operation(String symbol, int operands) {
        this.symbol = symbol;
        this.operands = operands;
    }

    /** The SQL-like symbol used by {@code toString()}. */
    public String symbol() {
        return symbol;
    }

    /** The number of literals the operation takes, or -1 for a list (IN, NOT IN). */
    public int operands() {
        return operands;
    }

    /**
     * The operation that is TRUE exactly where this one is FALSE (and UNKNOWN where it is UNKNOWN).
     * Exact for every type except the order comparisons of FLOAT/DOUBLE, where NaN makes both sides
     * FALSE; the binder handles that case.
     */
    Operation negate() {
        return switch (this) {
            case IS_NULL -> NOT_NULL;
            case NOT_NULL -> IS_NULL;
            case IS_NAN -> NOT_NAN;
            case NOT_NAN -> IS_NAN;
            case LT -> GT_EQ;
            case LT_EQ -> GT;
            case GT -> LT_EQ;
            case GT_EQ -> LT;
            case EQ -> NOT_EQ;
            case NOT_EQ -> EQ;
            case IN -> NOT_IN;
            case NOT_IN -> IN;
            case STARTS_WITH -> NOT_STARTS_WITH;
            case NOT_STARTS_WITH -> STARTS_WITH;
        };
    }
}
