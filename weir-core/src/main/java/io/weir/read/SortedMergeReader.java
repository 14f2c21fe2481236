package io.weir.read;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.RowReader;
import io.weir.merge.MergeFunction;
import io.weir.util.Closeables;
import io.weir.util.IndexHeap;

import java.util.List;

/**
 * Merge-on-read of one file group of a keyed table: sources yield rows sorted by primary key and
 * are given oldest first (base, then logs by ascending sequence); the records of each key are
 * folded by the table's {@link MergeFunction}. A key whose result is a retraction is dropped,
 * unless retractions are kept (for change computations), in which case it is returned with its
 * kind.
 */
public final class SortedMergeReader implements RowReader {
    private final RowReader[] sources;
    private final KeyFields key;
    private final MergeFunction merge;
    private final boolean keepDeletes;

    /** The sources ordered by (current key, source index). */
    private final IndexHeap heap;

    /**
     * @param sources readers sorted by key, oldest first; closed with this reader
     * @param key the primary key
     * @param merge the table's merge function, for rows that do not stay valid
     * @param keepDeletes whether a key whose result is a retraction is returned instead of dropped
     */
    public SortedMergeReader(
            List<RowReader> sources, KeyFields key, MergeFunction merge, boolean keepDeletes) {
        this.sources = sources.toArray(new RowReader[0]);
        this.key = key;
        this.merge = merge;
        this.keepDeletes = keepDeletes;
        this.heap = new IndexHeap(this.sources.length, this::less);
        for (int i = 0; i < this.sources.length; i++) {
            if (this.sources[i].next()) {
                heap.add(i);
            }
        }
    }

    @Override
    public boolean next() {
        while (!heap.isEmpty()) {
            merge.reset();
            merge.add(sources[heap.top()].row());
            advance();
            while (!heap.isEmpty() && key.compare(sources[heap.top()].row(), merge.result()) == 0) {
                merge.add(sources[heap.top()].row());
                advance();
            }
            if (keepDeletes || !merge.result().rowKind().isRetraction()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public BinaryRow row() {
        return merge.result();
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
