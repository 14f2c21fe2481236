package io.weir.read;

import io.weir.data.BinaryRow;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.expressions.BoundExpression;
import io.weir.types.RowType;

/**
 * Filters rows and projects them onto some columns. Projection copies the selected fields into a
 * reused row; without projection the rows pass through unchanged.
 */
public final class FilterProjectReader implements RowReader {
    private final RowReader input;
    private final BoundExpression filter;
    private final RowProjection projection;
    private BinaryRow current;

    /**
     * @param filter rows to keep, or null for all
     * @param projection positions of the fields to keep, in order, or null for all
     * @param kind the kind of every returned row, or null to keep each row's own
     */
    public FilterProjectReader(
            RowReader input,
            RowType inputType,
            BoundExpression filter,
            int[] projection,
            RowKind kind) {
        this.input = input;
        this.filter = filter == null || filter.isAlwaysTrue() ? null : filter;
        this.projection = new RowProjection(inputType, projection, kind);
    }

    @Override
    public boolean next() {
        while (input.next()) {
            BinaryRow row = input.row();
            if (filter == null || filter.test(row)) {
                current = projection.apply(row);
                return true;
            }
        }
        return false;
    }

    @Override
    public BinaryRow row() {
        return current;
    }

    @Override
    public void close() {
        input.close();
    }
}
