package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.memory.MemoryPool;
import io.weir.util.LittleEndian;

import java.util.Arrays;

/**
 * The sort index of a {@link SortBuffer}: fixed-size entries in pool pages, one per buffered row,
 * and the order on them. Sorting moves these entries only, never the rows.
 *
 * <pre>
 * entry   := group prefix pointer length   (32 bytes, little-endian longs)
 * group   := partitionId &lt;&lt; 32 | bucket   (both non-negative: signed order = (partition, bucket))
 * prefix  := KeyFields.normalizedPrefix(row), compared unsigned; 0 without a key
 * pointer := dataPageNumber &lt;&lt; 32 | offset  (increases with every append: the insertion order)
 * length  := the row's size in bytes (the high 4 bytes are unused)
 * </pre>
 *
 * Entry i lives in page {@code i >>> entryShift} at {@code (i & entryMask) * 32}: a power-of-two
 * entry size keeps the address arithmetic to shifts.
 */
final class SortIndex {
    static final int ENTRY_BYTES = 32;
    private static final int ENTRY_SHIFT_BYTES = 5;
    private static final int PREFIX = 8;
    private static final int POINTER = 16;
    private static final int LENGTH = 24;

    private final MemoryPool pool;
    private final int entryShift;
    private final int entryMask;

    /** Full key comparison on equal prefixes; null when the prefix decides (or there is no key). */
    private final KeyFields tieBreakKey;

    private final IndexSort sorter = new IndexSort(this);

    /** The order when it is (group, prefix, insertion) and packs into longs; else null. */
    private final PackedOrder packed;

    /** False once {@link IndexSort} has moved entries: only entries in insertion order pack. */
    private boolean inInsertionOrder = true;

    private final BinaryRow rowA;
    private final BinaryRow rowB;
    private final BinaryRow pivotRow;

    private byte[][] pages = new byte[16][];
    private int pageCount;
    private int capacity;
    private int size;
    private byte[][] dataPages;

    private long pivotGroup;
    private long pivotPrefix;
    private long pivotPointer;

    SortIndex(MemoryPool pool, int arity, KeyFields key) {
        this.pool = pool;
        this.entryShift = Integer.numberOfTrailingZeros(pool.pageSize()) - ENTRY_SHIFT_BYTES;
        this.entryMask = (1 << entryShift) - 1;
        this.tieBreakKey = key == null || key.prefixDetermines() ? null : key;
        this.packed = tieBreakKey == null ? new PackedOrder(pool.pageSize()) : null;
        this.rowA = new BinaryRow(arity);
        this.rowB = new BinaryRow(arity);
        this.pivotRow = new BinaryRow(arity);
    }

    int size() {
        return size;
    }

    /** How many more entries fit in the pages held, without a new page. */
    int room() {
        return capacity - size;
    }

    /** Pool pages that adding an index page takes: the page and its share of the scratch. */
    int pagesToGrow() {
        return 1 + (packed == null ? 0 : PackedOrder.pagesFor(pageCount + 1) - packed.pageCount());
    }

    /** Pool pages the first entry takes: an index page and, for a packed order, scratch. */
    int pagesForFirstEntry() {
        return 1 + (packed == null ? 0 : PackedOrder.pagesFor(1));
    }

    /** Adds an index page, and scratch pages as needed, from the pool: {@link #pagesToGrow()}. */
    void grow() {
        int scratch = pagesToGrow() - 1;
        addPage(pool.allocate());
        for (int i = 0; i < scratch; i++) {
            packed.addPage(pool.allocate());
        }
    }

    private void addPage(byte[] page) {
        if (pageCount == pages.length) {
            pages = Arrays.copyOf(pages, 2 * pageCount);
        }
        pages[pageCount++] = page;
        capacity = (int) Math.min(Integer.MAX_VALUE, (long) pageCount << entryShift);
    }

    /** Appends an entry; {@link #room()} must be positive. */
    void add(long group, long prefix, long pointer, int length) {
        byte[] page = pages[size >>> entryShift];
        int at = (size & entryMask) << ENTRY_SHIFT_BYTES;
        LittleEndian.putLong(page, at, group);
        LittleEndian.putLong(page, at + PREFIX, prefix);
        LittleEndian.putLong(page, at + POINTER, pointer);
        LittleEndian.putLong(page, at + LENGTH, length);
        size++;
    }

    long group(int i) {
        return word(i, 0);
    }

    /** The long at {@code wordOffset} (0, 8, 16: group, prefix, pointer) of entry i. */
    long word(int i, int wordOffset) {
        return LittleEndian.getLong(
                pages[i >>> entryShift], ((i & entryMask) << ENTRY_SHIFT_BYTES) + wordOffset);
    }

    long prefix(int i) {
        return word(i, PREFIX);
    }

    long pointer(int i) {
        return word(i, POINTER);
    }

    int length(int i) {
        return (int)
                LittleEndian.getLong(
                        pages[i >>> entryShift], ((i & entryMask) << ENTRY_SHIFT_BYTES) + LENGTH);
    }

    /** Returns all pages to the pool. */
    void clear() {
        for (int i = 0; i < pageCount; i++) {
            pool.release(pages[i]);
            pages[i] = null;
        }
        pageCount = 0;
        capacity = 0;
        size = 0;
        dataPages = null;
        if (packed != null) {
            packed.clear(pool);
        }
        inInsertionOrder = true;
    }

    /**
     * Sorts the entries, or makes a {@link #packedOrder()} of them; {@code dataPages} are the rows'
     * pages, by page number.
     */
    void sort(byte[][] dataPages) {
        if (packed != null) {
            packed.reset();
        }
        if (size < 2) {
            return;
        }
        if (packed != null && inInsertionOrder && packed.sort(this, size)) {
            return;
        }
        inInsertionOrder = false;
        this.dataPages = dataPages;
        sorter.sort(size, tieBreakKey == null);
        this.dataPages = null;
    }

    /**
     * The packed order of the rows if the last sort made one (then it describes the rows in order),
     * or null: then the entries themselves are in order.
     */
    PackedOrder packedOrder() {
        return packed != null && packed.isSorted() ? packed : null;
    }

    // ---- the order, for IndexSort ----

    /** Orders entries i and j: (partition, bucket), prefix, full key if needed, insertion. */
    int compare(int i, int j) {
        byte[] pi = pages[i >>> entryShift];
        int ai = (i & entryMask) << ENTRY_SHIFT_BYTES;
        byte[] pj = pages[j >>> entryShift];
        int aj = (j & entryMask) << ENTRY_SHIFT_BYTES;
        int c = Long.compare(LittleEndian.getLong(pi, ai), LittleEndian.getLong(pj, aj));
        if (c != 0) {
            return c;
        }
        c =
                Long.compareUnsigned(
                        LittleEndian.getLong(pi, ai + PREFIX),
                        LittleEndian.getLong(pj, aj + PREFIX));
        if (c != 0) {
            return c;
        }
        long pointerI = LittleEndian.getLong(pi, ai + POINTER);
        long pointerJ = LittleEndian.getLong(pj, aj + POINTER);
        if (tieBreakKey != null) {
            c =
                    tieBreakKey.compare(
                            pointTo(rowA, pointerI, LittleEndian.getLong(pi, ai + LENGTH)),
                            pointTo(rowB, pointerJ, LittleEndian.getLong(pj, aj + LENGTH)));
            if (c != 0) {
                return c;
            }
        }
        return Long.compare(pointerI, pointerJ);
    }

    // ---- longer sort words of string keys, for IndexSort ----

    /** Whether ties of the prefix can be sorted by further words of the key (a string key). */
    boolean hasLongerWords() {
        return tieBreakKey != null && tieBreakKey.hasLongerWords();
    }

    /**
     * Replaces entry i's prefix by word {@code depth} of its key ({@link KeyFields#normalizedWord})
     * and returns it; sets {@link #moreWords} if the key has bytes past that word. Only for entries
     * whose earlier words tie: the sort restores their prefix after.
     */
    long loadWord(int i, int depth) {
        byte[] p = pages[i >>> entryShift];
        int a = (i & entryMask) << ENTRY_SHIFT_BYTES;
        BinaryRow row =
                pointTo(
                        rowA,
                        LittleEndian.getLong(p, a + POINTER),
                        LittleEndian.getLong(p, a + LENGTH));
        long word = tieBreakKey.normalizedWord(row, depth);
        LittleEndian.putLong(p, a + PREFIX, word);
        if (!moreWords && tieBreakKey.hasWordsAfter(row, depth)) {
            moreWords = true;
        }
        return word;
    }

    /** Set by {@link #loadWord} when a key goes on past the loaded word; reset by the caller. */
    boolean moreWords;

    /** Sets the prefix of entries {@code lo..hi-1}. */
    void setPrefix(int lo, int hi, long prefix) {
        for (int i = lo; i < hi; i++) {
            LittleEndian.putLong(
                    pages[i >>> entryShift],
                    ((i & entryMask) << ENTRY_SHIFT_BYTES) + PREFIX,
                    prefix);
        }
    }

    /** Remembers entry i's sort key as the pivot, so that it may move during partitioning. */
    void setPivot(int i) {
        byte[] p = pages[i >>> entryShift];
        int a = (i & entryMask) << ENTRY_SHIFT_BYTES;
        pivotGroup = LittleEndian.getLong(p, a);
        pivotPrefix = LittleEndian.getLong(p, a + PREFIX);
        pivotPointer = LittleEndian.getLong(p, a + POINTER);
        if (tieBreakKey != null) {
            pointTo(pivotRow, pivotPointer, LittleEndian.getLong(p, a + LENGTH));
        }
    }

    /** Orders entry i against the pivot. */
    int compareToPivot(int i) {
        byte[] p = pages[i >>> entryShift];
        int a = (i & entryMask) << ENTRY_SHIFT_BYTES;
        int c = Long.compare(LittleEndian.getLong(p, a), pivotGroup);
        if (c != 0) {
            return c;
        }
        c = Long.compareUnsigned(LittleEndian.getLong(p, a + PREFIX), pivotPrefix);
        if (c != 0) {
            return c;
        }
        long pointer = LittleEndian.getLong(p, a + POINTER);
        if (tieBreakKey != null) {
            c =
                    tieBreakKey.compare(
                            pointTo(rowA, pointer, LittleEndian.getLong(p, a + LENGTH)), pivotRow);
            if (c != 0) {
                return c;
            }
        }
        return Long.compare(pointer, pivotPointer);
    }

    /**
     * The American flag permutation: moves each entry of a range into its bucket, by the digit
     * {@code (word >>> shift) & mask} of the word at {@code wordOffset}. Bucket b is {@code
     * starts[b]..ends[b]-1}; {@code starts} advance as buckets fill. A displaced entry is carried
     * in registers to its own bucket, so each entry is written once.
     */
    void permute(int wordOffset, int shift, int mask, int[] starts, int[] ends) {
        for (int b = 0; b <= mask; b++) {
            int bucketEnd = ends[b];
            while (starts[b] < bucketEnd) {
                int i = starts[b];
                byte[] p = pages[i >>> entryShift];
                int a = (i & entryMask) << ENTRY_SHIFT_BYTES;
                int v = (int) (LittleEndian.getLong(p, a + wordOffset) >>> shift) & mask;
                if (v != b) {
                    long w0 = LittleEndian.getLong(p, a);
                    long w1 = LittleEndian.getLong(p, a + PREFIX);
                    long w2 = LittleEndian.getLong(p, a + POINTER);
                    long w3 = LittleEndian.getLong(p, a + LENGTH);
                    do {
                        int j = starts[v]++;
                        byte[] q = pages[j >>> entryShift];
                        int c = (j & entryMask) << ENTRY_SHIFT_BYTES;
                        long t0 = LittleEndian.getLong(q, c);
                        long t1 = LittleEndian.getLong(q, c + PREFIX);
                        long t2 = LittleEndian.getLong(q, c + POINTER);
                        long t3 = LittleEndian.getLong(q, c + LENGTH);
                        LittleEndian.putLong(q, c, w0);
                        LittleEndian.putLong(q, c + PREFIX, w1);
                        LittleEndian.putLong(q, c + POINTER, w2);
                        LittleEndian.putLong(q, c + LENGTH, w3);
                        w0 = t0;
                        w1 = t1;
                        w2 = t2;
                        w3 = t3;
                        long key = wordOffset == 0 ? w0 : wordOffset == PREFIX ? w1 : w2;
                        v = (int) (key >>> shift) & mask;
                    } while (v != b);
                    LittleEndian.putLong(p, a, w0);
                    LittleEndian.putLong(p, a + PREFIX, w1);
                    LittleEndian.putLong(p, a + POINTER, w2);
                    LittleEndian.putLong(p, a + LENGTH, w3);
                }
                starts[b]++;
            }
        }
    }

    void swap(int i, int j) {
        byte[] pi = pages[i >>> entryShift];
        int ai = (i & entryMask) << ENTRY_SHIFT_BYTES;
        byte[] pj = pages[j >>> entryShift];
        int aj = (j & entryMask) << ENTRY_SHIFT_BYTES;
        for (int k = 0; k < ENTRY_BYTES; k += 8) {
            long t = LittleEndian.getLong(pi, ai + k);
            LittleEndian.putLong(pi, ai + k, LittleEndian.getLong(pj, aj + k));
            LittleEndian.putLong(pj, aj + k, t);
        }
    }

    private BinaryRow pointTo(BinaryRow row, long pointer, long length) {
        return row.pointTo(dataPages[(int) (pointer >>> 32)], (int) pointer, (int) length);
    }
}
