package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.util.Closeables;
import io.weir.util.IndexHeap;

import java.util.List;

/**
 * A k-way merge of {@link SortedRows} given oldest first (spilled runs in the order they were
 * written, then the buffer): the result is again in write order, since rows of equal keys come from
 * the older source first. A binary min-heap of source indexes ordered by (group, key prefix, key
 * when the prefix does not decide it, source index): O(log k) comparisons per row, mostly on two
 * longs.
 */
final class MergedRows implements SortedRows {
    private final SortedRows[] sources;
    private final KeyFields tieBreakKey;
    private final IndexHeap heap;
    private SortedRows current;
    private boolean started;

    /**
     * @param sources oldest first; closed with this merge
     * @param key the primary key, or null for an append-only table
     */
    MergedRows(List<SortedRows> sources, KeyFields key) {
        this.sources = sources.toArray(new SortedRows[0]);
        this.tieBreakKey = key == null || key.prefixDetermines() ? null : key;
        this.heap = new IndexHeap(this.sources.length, this::less);
    }

    @Override
    public boolean next() {
        if (!started) {
            started = true;
            for (int i = 0; i < sources.length; i++) {
                if (sources[i].next()) {
                    heap.add(i);
                }
            }
        } else if (current != null) {
            // Advance the source of the row returned last; it is still at the top.
            if (current.next()) {
                heap.topAdvanced();
            } else {
                heap.removeTop();
            }
        }
        current = heap.isEmpty() ? null : sources[heap.top()];
        return current != null;
    }

    @Override
    public long group() {
        return current.group();
    }

    @Override
    public long prefix() {
        return current.prefix();
    }

    @Override
    public BinaryRow row() {
        return current.row();
    }

    /** The row of an advanced source may be gone (a run reader reuses its block buffer). */
    @Override
    public boolean rowsStayValid() {
        return false;
    }

    private boolean less(int a, int b) {
        SortedRows x = sources[a];
        SortedRows y = sources[b];
        int c = Long.compare(x.group(), y.group());
        if (c == 0) {
            c = Long.compareUnsigned(x.prefix(), y.prefix());
            if (c == 0 && tieBreakKey != null) {
                c = tieBreakKey.compare(x.row(), y.row());
            }
        }
        return c < 0 || (c == 0 && a < b);
    }

    @Override
    public void close() {
        Closeables.closeAll(sources);
    }
}
