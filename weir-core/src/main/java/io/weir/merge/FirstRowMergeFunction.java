package io.weir.merge;

import io.weir.data.BinaryRow;
import io.weir.util.RowBuffer;

/**
 * The {@code first-row} engine: a key's first record is kept and later ones are ignored. Files are
 * merged oldest first, so the rule needs no lookup of existing data when a record is written: the
 * flush keeps the first record of its buffer, and merge-on-read and compaction keep the oldest
 * file's. Retractions are refused at write ({@link MergeFunctions#retractionRefusal}) or dropped by
 * {@code ignore-delete}.
 */
final class FirstRowMergeFunction implements MergeFunction {
    private final RowBuffer copy;
    private final BinaryRow view;
    private BinaryRow first;

    FirstRowMergeFunction(int arity, boolean rowsStayValid) {
        this.copy = rowsStayValid ? null : new RowBuffer(arity);
        this.view = new BinaryRow(arity);
    }

    @Override
    public void reset() {
        first = null;
    }

    @Override
    public void add(BinaryRow row) {
        if (first == null) {
            first =
                    copy != null
                            ? copy.set(row)
                            : view.pointTo(row.bytes(), row.offset(), row.sizeInBytes());
        }
    }

    @Override
    public BinaryRow result() {
        return first;
    }

    @Override
    public boolean resultStaysValid() {
        return copy == null;
    }
}
