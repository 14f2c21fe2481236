package io.weir.merge;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.util.RowBuffer;

/**
 * The {@code deduplicate} engine: the latest record wins, or, with {@code sequence.field}, the one
 * with the greatest value of it (nulls lose; ties go to the later record). A winning retraction
 * removes the key.
 */
final class DeduplicateMergeFunction implements MergeFunction {
    private final KeyFields sequenceField;

    /** Null when added rows stay valid: then the winner is a view of the row added. */
    private final RowBuffer copy;

    private final BinaryRow view;
    private BinaryRow winner;

    DeduplicateMergeFunction(KeyFields sequenceField, int arity, boolean rowsStayValid) {
        this.sequenceField = sequenceField;
        this.copy = rowsStayValid ? null : new RowBuffer(arity);
        this.view = new BinaryRow(arity);
    }

    @Override
    public void reset() {
        winner = null;
    }

    @Override
    public void add(BinaryRow row) {
        if (winner == null || sequenceField == null || sequenceField.compare(row, winner) >= 0) {
            winner =
                    copy != null
                            ? copy.set(row)
                            : view.pointTo(row.bytes(), row.offset(), row.sizeInBytes());
        }
    }

    @Override
    public BinaryRow result() {
        return winner;
    }

    @Override
    public boolean resultStaysValid() {
        return copy == null;
    }
}
