package io.weir.expressions;

/**
 * What metadata says about one column over a set of rows (a file, a key range): every non-null
 * value lies in [lower, upper] in the column's order, where a null bound means unbounded; and
 * whether the rows may hold nulls, respectively non-null values. Bounds are in the comparison form
 * of the column's {@link Kind}.
 */
record ColumnBounds(Object lower, Object upper, boolean mayHaveNull, boolean mayHaveNonNull) {
    static final ColumnBounds UNKNOWN = new ColumnBounds(null, null, true, true);
}
