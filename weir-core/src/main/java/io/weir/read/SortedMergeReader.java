package io.weir.read;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.RowKind;

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

    /** A binary min-heap of source indexes ordered by (current key, source index). */
    private final int[] heap;

    private final RowBuffer winner;
    private int heapSize;

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
        this.heap = new int[this.sources.length];
        this.winner = new RowBuffer(arity);
        for (int i = 0; i < this.sources.length; i++) {
            if (this.sources[i].next()) {
                heap[heapSize++] = i;
                siftUp(heapSize - 1);
            }
        }
    }

    @Override
    public boolean next() {
        while (heapSize > 0) {
            int first = heap[0];
            BinaryRow best = winner.set(sources[first].row());
            advance();
            while (heapSize > 0 && key.compare(sources[heap[0]].row(), best) == 0) {
                BinaryRow candidate = sources[heap[0]].row();
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
        int top = heap[0];
        if (sources[top].next()) {
            siftDown(0);
        } else {
            heap[0] = heap[--heapSize];
            if (heapSize > 0) {
                siftDown(0);
            }
        }
    }

    private boolean less(int a, int b) {
        int c = key.compare(sources[a].row(), sources[b].row());
        return c < 0 || (c == 0 && a < b);
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(heap[i], heap[parent])) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int l = 2 * i + 1;
            if (l >= heapSize) {
                return;
            }
            int smallest = l + 1 < heapSize && less(heap[l + 1], heap[l]) ? l + 1 : l;
            if (!less(heap[smallest], heap[i])) {
                return;
            }
            swap(i, smallest);
            i = smallest;
        }
    }

    private void swap(int a, int b) {
        int t = heap[a];
        heap[a] = heap[b];
        heap[b] = t;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (RowReader source : sources) {
            try {
                source.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
