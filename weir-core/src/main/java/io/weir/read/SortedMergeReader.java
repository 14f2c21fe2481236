package io.weir.read;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.RowKind;
import io.weir.util.Closeables;
import io.weir.util.IndexHeap;

import java.util.List;

/**
 * Merge-on-read of one file group with the {@code deduplicate} engine: sources yield rows sorted by
 * primary key and are given oldest first (base, then logs by ascending sequence). For each key the
 * winner is the latest record, or, with a sequence field, the record with the greatest sequence
 * field value (nulls lose; ties go to the latest). A winning delete removes the key, unless deletes
 * are kept (for change computations), in which case it is returned with its kind.
 */
public final class SortedMergeReader implements RowReader {
    private final RowReader[] sources;
    private final KeyFields key;
    private final KeyFields sequenceField;
    private final boolean keepDeletes;

    /** The sources ordered by (current key, source index). */
    private final IndexHeap heap;

    private final RowBuffer winner;

    /**
     * @param sources readers sorted by key, oldest first; closed with this reader
     * @param key the primary key
     * @param sequenceField the ordering field as a one-field key, or null
     * @param keepDeletes whether a winning delete is returned instead of dropped
     */
    public SortedMergeReader(
            List<RowReader> sources,
            int arity,
            KeyFields key,
            KeyFields sequenceField,
            boolean keepDeletes) {
        this.sources = sources.toArray(new RowReader[0]);
        this.key = key;
        this.sequenceField = sequenceField;
        this.keepDeletes = keepDeletes;
        this.heap = new IndexHeap(this.sources.length, this::less);
        this.winner = new RowBuffer(arity);
        for (int i = 0; i < this.sources.length; i++) {
            if (this.sources[i].next()) {
                heap.add(i);
            }
        }
    }

    @Override
    public boolean next() {
        while (!heap.isEmpty()) {
            int first = heap.top();
            BinaryRow best = winner.set(sources[first].row());
            advance();
            while (!heap.isEmpty() && key.compare(sources[heap.top()].row(), best) == 0) {
                BinaryRow candidate = sources[heap.top()].row();
                if (sequenceField == null || sequenceField.compare(candidate, best) >= 0) {
                    best = winner.set(candidate);
                }
                advance();
            }
            RowKind kind = best.rowKind();
            if (kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE) {
                if (keepDeletes) {
                    return true;
                }
                continue;
            }
            return true;
        }
        return false;
    }

    @Override
    public BinaryRow row() {
        return winner.row();
    }

    /** Moves the top source to its next row, or drops it from the heap when it is exhausted. */
    private void advance() {
        if (sources[heap.top()].next()) {
            heap.topAdvanced();
        } else {
            heap.removeTop();
        }
    }

    private boolean less(int a, int b) {
        int c = key.compare(sources[a].row(), sources[b].row());
        return c < 0 || (c == 0 && a < b);
    }

    @Override
    public void close() {
        Closeables.closeAll(sources);
    }
}
