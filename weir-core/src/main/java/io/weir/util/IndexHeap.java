package io.weir.util;

/**
 * A binary min-heap of source indexes for k-way merges: the sources themselves (readers positioned
 * on a row) live with the caller, which says how two of them compare. O(log k) comparisons per row,
 * no allocation after construction.
 */
public final class IndexHeap {
    /** Whether source {@code a} comes before source {@code b}; must break ties (by index). */
    @FunctionalInterface
    public interface Order {
        boolean less(int a, int b);
    }

    private final int[] heap;
    private final Order order;
    private int size;

    public IndexHeap(int capacity, Order order) {
        this.heap = new int[capacity];
        this.order = order;
    }

    /** Adds a source positioned on its first row. */
    public void add(int source) {
        heap[size++] = source;
        siftUp(size - 1);
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The source that comes first. */
    public int top() {
        return heap[0];
    }

    /** Restores the order after the top source moved to its next row. */
    public void topAdvanced() {
        siftDown(0);
    }

    /** Drops the top source (it is exhausted). */
    public void removeTop() {
        heap[0] = heap[--size];
        if (size > 0) {
            siftDown(0);
        }
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!order.less(heap[i], heap[parent])) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int l = 2 * i + 1;
            if (l >= size) {
                return;
            }
            int smallest = l + 1 < size && order.less(heap[l + 1], heap[l]) ? l + 1 : l;
            if (!order.less(heap[smallest], heap[i])) {
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
}
