package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.memory.MemoryPool;

import java.util.Arrays;

/**
 * A writer's in-memory buffer: ONE append area for the rows of all partitions and buckets, plus a
 * {@link SortIndex} that is sorted at flush time (sort, don't scatter). All memory comes from a
 * {@link MemoryPool}; {@link #clear()} gives it back.
 *
 * <p>Rows are copied, byte for byte, into the current data page, back to back; a row never
 * straddles two pages: when it does not fit the rest of the page, it starts a new one. A row larger
 * than a page gets an array of its own ({@link MemoryPool#allocateLarge}: as many pages of the
 * budget as it spans); rows after it fill the rest of that array, then new pages. Rows go to slabs
 * instead of pages when the pool has them ({@link MemoryPool#allocateSlab}). Each row adds one
 * index entry, also in pool pages.
 *
 * <p>{@link #sortedCursor()} yields the rows ordered by (partition id, bucket), then, with a key,
 * by key ({@link KeyFields#compare}), then by insertion: among rows of equal keys the last appended
 * comes last, so that the latest wins downstream. Without a key (append-only tables): by (partition
 * id, bucket), then insertion.
 *
 * <p>No allocation per record, on append or on iteration. Single-threaded, like its pool.
 */
public final class SortBuffer {
    private static final byte[] NO_PAGE = new byte[0];

    private final MemoryPool pool;
    private final KeyFields key;
    private final SortIndex index;
    private final SortedCursor cursor;

    /** Data pages by page number (the pointer's high half), including large arrays. */
    private byte[][] dataPages = new byte[16][];

    private int dataPageCount;

    /** The page rows are appended to; an empty array before the first, so that nothing fits. */
    private byte[] current = NO_PAGE;

    private int position;
    private long memoryUsed;
    private boolean sorted = true;

    /**
     * A buffer for rows of {@code arity} fields, ordered by {@code key}, or null for an append-only
     * table (insertion order within a partition and bucket).
     */
    public SortBuffer(MemoryPool pool, int arity, KeyFields key) {
        this.pool = pool;
        this.key = key;
        this.index = new SortIndex(pool, arity, key);
        this.cursor = new SortedCursor(index, new BinaryRow(arity));
    }

    /**
     * Copies {@code row} into the buffer, for partition {@code partitionId} (the caller's small,
     * non-negative id for a partition) and {@code bucket} (non-negative).
     *
     * @return true when buffered; false, with nothing changed, when the pool cannot supply the
     *     pages for the row or its index entry: flush (or let another owner of the pool flush),
     *     {@link #clear()}, and append again
     * @throws IllegalArgumentException when the row could not be buffered even with the whole pool
     *     (it needs more pages than {@link MemoryPool#maxPages()}); flushing would not help
     */
    public boolean append(int partitionId, int bucket, BinaryRow row) {
        int length = row.sizeInBytes();
        // One test for every rare case (bad ids, page full, index page full), so the compiled
        // caller has a single cold branch here rather than one deoptimisation per case.
        if ((partitionId | bucket | (current.length - position - length) | index.room() - 1) < 0
                && !makeRoom(partitionId, bucket, length)) {
            return false;
        }
        System.arraycopy(row.bytes(), row.offset(), current, position, length);
        long prefix = key == null ? 0L : key.normalizedPrefix(row);
        long group = ((long) partitionId << 32) | bucket;
        index.add(group, prefix, ((long) (dataPageCount - 1) << 32) | position, length);
        position += length;
        sorted = false;
        return true;
    }

    /**
     * Takes the pages a row of {@code length} bytes and its entry need; false if the pool can't.
     */
    private boolean makeRoom(int partitionId, int bucket, int length) {
        if ((partitionId | bucket) < 0) {
            throw new IllegalArgumentException(
                    "Invalid partition id " + partitionId + " or bucket " + bucket);
        }
        boolean fits = current != NO_PAGE && length <= current.length - position;
        int dataPagesNeeded = fits ? 0 : pool.pagesFor(length);
        int indexPagesNeeded = index.room() > 0 ? 0 : index.pagesToGrow();
        if (dataPagesNeeded + indexPagesNeeded > pool.freePages()) {
            checkCanEverFit(length);
            return false;
        }
        if (!fits) {
            // A slab if the pool has them and can spare one beyond the index's next pages.
            byte[] page = length <= pool.slabBytes() ? pool.allocateSlab(indexPagesNeeded) : null;
            if (page == null) {
                page = dataPagesNeeded == 1 ? pool.allocate() : pool.allocateLarge(length);
            }
            addDataPage(page);
        }
        if (indexPagesNeeded > 0) {
            index.grow();
            memoryUsed += (long) indexPagesNeeded * pool.pageSize();
        }
        return true;
    }

    /**
     * Sorts the buffer (unless sorted already) and returns its cursor, positioned before the first
     * row. The cursor is the buffer's own (one per buffer, reset by each call) and is valid until
     * the next append or {@link #clear()}.
     */
    public SortedCursor sortedCursor() {
        if (!sorted) {
            index.sort(dataPages);
            sorted = true;
        }
        cursor.reset(dataPages);
        return cursor;
    }

    /** Drops all rows and returns every page to the pool. */
    public void clear() {
        for (int i = 0; i < dataPageCount; i++) {
            pool.release(dataPages[i]);
            dataPages[i] = null;
        }
        index.clear();
        cursor.reset(null);
        dataPageCount = 0;
        current = NO_PAGE;
        position = 0;
        memoryUsed = 0;
        sorted = true;
    }

    /** The number of rows buffered. */
    public int size() {
        return index.size();
    }

    public boolean isEmpty() {
        return index.size() == 0;
    }

    /** Bytes of pool memory held: data pages, large arrays and index pages. */
    public long memoryUsed() {
        return memoryUsed;
    }

    private void addDataPage(byte[] page) {
        if (dataPageCount == dataPages.length) {
            dataPages = Arrays.copyOf(dataPages, 2 * dataPageCount);
        }
        dataPages[dataPageCount++] = page;
        current = page;
        position = 0;
        memoryUsed += page.length;
    }

    private void checkCanEverFit(int length) {
        // Into an empty buffer, the row takes its data page(s) and the first index page(s).
        int pages = pool.pagesFor(length) + index.pagesForFirstEntry();
        if (pages > pool.maxPages()) {
            throw new IllegalArgumentException(
                    "Cannot buffer a row of "
                            + length
                            + " bytes: it needs "
                            + pages
                            + " pages of "
                            + pool.pageSize()
                            + " bytes, the write buffer has "
                            + pool.maxPages()
                            + " (increase write-buffer-size)");
        }
    }
}
