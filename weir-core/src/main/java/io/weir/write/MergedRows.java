package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;

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
    private final int[] heap;
    private int heapSize;
    private SortedRows current;
    private boolean started;

    /**
     * @param sources oldest first; closed with this merge
     * @param key the primary key, or null for an append-only table
     */
    MergedRows(List<SortedRows> sources, KeyFields key) {
        this.sources = sources.toArray(new SortedRows[0]);
        this.tieBreakKey = key == null || key.prefixDetermines() ? null : key;
        this.heap = new int[this.sources.length];
    }

    @Override
    public boolean next() {
        if (!started) {
            started = true;
            for (int i = 0; i < sources.length; i++) {
                if (sources[i].next()) {
                    heap[heapSize++] = i;
                    siftUp(heapSize - 1);
                }
            }
        } else if (current != null) {
            // Advance the source of the row returned last; it is still at the top.
            if (current.next()) {
                siftDown(0);
            } else {
                heap[0] = heap[--heapSize];
                if (heapSize > 0) {
                    siftDown(0);
                }
            }
        }
        current = heapSize > 0 ? sources[heap[0]] : null;
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
        for (SortedRows source : sources) {
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
