package io.weir.options;

/**
 * The aggregate functions of the {@code aggregation} merge engine (docs/merge-engines.md), set per
 * field by {@code fields.<field>.aggregate-function}.
 */
public enum AggregateFunction {
    /** The sum of the values; a retraction subtracts. Numeric types. */
    SUM,
    /** The product of the values. Numeric types; cannot retract. */
    PRODUCT,
    /** The number of non-null values; a retraction counts down. INT or BIGINT. */
    COUNT,
    /** The smallest value. Comparable types; cannot retract. */
    MIN,
    /** The greatest value. Comparable types; cannot retract. */
    MAX,
    /** The latest value, null included; a retraction sets null. Any type. */
    LAST_VALUE,
    /** The latest non-null value; a retraction is ignored. Any type. */
    LAST_NON_NULL_VALUE,
    /** The first value, null included. Any type; cannot retract. */
    FIRST_VALUE,
    /** The first non-null value. Any type; cannot retract. */
    FIRST_NON_NULL_VALUE,
    /** True if every value is. BOOLEAN; cannot retract. */
    BOOL_AND,
    /** True if any value is. BOOLEAN; cannot retract. */
    BOOL_OR,
    /** The values joined by {@code fields.<field>.list-agg-delimiter}. STRING; cannot retract. */
    LISTAGG;

    /** Whether a retraction (-U, -D) can be applied to the aggregate. */
    public boolean canRetract() {
        return this == SUM || this == COUNT || this == LAST_VALUE || this == LAST_NON_NULL_VALUE;
    }
}
