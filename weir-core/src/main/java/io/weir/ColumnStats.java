package io.weir;

/**
 * Statistics of one column in one base file: min and max as canonical texts ({@link
 * io.weir.data.ValueStrings}; null if every value is null or the column has no order) and the
 * number of nulls.
 */
public record ColumnStats(String min, String max, long nullCount) {}
