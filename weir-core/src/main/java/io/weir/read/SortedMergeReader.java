package io.weir.read;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.RowReader;
import io.weir.exceptions.CorruptFileException;
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
 *
 * <p>Every record merged is checked against the one before it in its source: a key below it means
 * the file is not sorted, which docs/format.md §4 and §5.2 require of every data file, and is a
 * {@link CorruptFileException} naming the file, never a wrong merge.
 */
public final class SortedMergeReader implements RowReader {
    private final RowReader[] sources;

    /** Each source's file, for errors. */
    private final List<String> names;

    private final KeyFields key;
    private final MergeFunction merge;
    private final boolean keepDeletes;

    /** The sources ordered by (current key, source index). */
    private final IndexHeap heap;

    /**
     * Each source's current {@link KeyFields#normalizedPrefix}: the heap compares these longs and
     * touches the rows only when two are equal (never, for a single integral key), so a sift does
     * not load the key of every row it passes.
     */
    private final long[] prefixes;

    private final boolean prefixDetermines;

    /**
     * @param sources readers sorted by key, oldest first; closed with this reader
     * @param names the file each source reads, for errors
     * @param key the primary key
     * @param merge the table's merge function, for rows that do not stay valid
     * @param keepDeletes whether a key whose result is a retraction is returned instead of dropped
     */
    public SortedMergeReader(
            List<RowReader> sources,
            List<String> names,
            KeyFields key,
            MergeFunction merge,
            boolean keepDeletes) {
        if (names.size() != sources.size()) {
            throw new IllegalArgumentException(
                    names.size() + " names for " + sources.size() + " sources");
        }
        this.names = List.copyOf(names);
        this.sources = sources.toArray(new RowReader[0]);
        this.key = key;
        this.merge = merge;
        this.keepDeletes = keepDeletes;
        this.prefixes = new long[this.sources.length];
        this.prefixDetermines = key.prefixDetermines();
        this.heap = new IndexHeap(this.sources.length, this::less);
        for (int i = 0; i < this.sources.length; i++) {
            if (this.sources[i].next()) {
                prefixes[i] = key.normalizedPrefix(this.sources[i].row());
                heap.add(i);
            }
        }
    }

    @Override
    public boolean next() {
        while (!heap.isEmpty()) {
            merge.reset();
            long prefix = prefixes[heap.top()];
            merge.add(sources[heap.top()].row());
            advance();
            while (!heap.isEmpty() && sameKey(heap.top(), prefix)) {
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

    /**
     * Moves the top source to its next row, or drops it from the heap when it is exhausted. The row
     * it leaves is on the key being merged, whose copy is the merge's result: the next row must not
     * be below it.
     */
    private void advance() {
        int top = heap.top();
        if (sources[top].next()) {
            long before = prefixes[top];
            long prefix = key.normalizedPrefix(sources[top].row());
            if (Long.compareUnsigned(prefix, before) < 0
                    || (prefix == before
                            && !prefixDetermines
                            && key.compare(sources[top].row(), merge.result()) < 0)) {
                throw new CorruptFileException(
                        names.get(top),
                        "a record's primary key is below the record before it: the file's"
                                + " records are not in key order (docs/format.md §4, §5.2)");
            }
            prefixes[top] = prefix;
            heap.topAdvanced();
        } else {
            heap.removeTop();
        }
    }

    /** Whether source {@code s} is on the key being merged, whose prefix is {@code prefix}. */
    private boolean sameKey(int s, long prefix) {
        return prefixes[s] == prefix
                && (prefixDetermines || key.compare(sources[s].row(), merge.result()) == 0);
    }

    private boolean less(int a, int b) {
        long pa = prefixes[a];
        long pb = prefixes[b];
        if (pa != pb) {
            return Long.compareUnsigned(pa, pb) < 0;
        }
        int c = prefixDetermines ? 0 : key.compare(sources[a].row(), sources[b].row());
        return c < 0 || (c == 0 && a < b);
    }

    @Override
    public void close() {
        Closeables.closeAll(sources);
    }
}
