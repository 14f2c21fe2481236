package io.weir.memory;

import java.util.Arrays;
import java.util.Collection;

/**
 * A bounded pool of fixed-size {@code byte[]} pages: the only memory a writer's buffers use.
 *
 * <p>The budget ({@code budgetBytes / pageSize} pages, {@link #maxPages()}) bounds everything the
 * pool hands out and everything it keeps for reuse. Pages are created lazily, up to the bound, and
 * recycled through a free list after {@link #release}: in steady state the pool creates no garbage.
 * Several buffers may share one pool, so that a writer's memory does not grow with the number of
 * partitions or buckets it writes.
 *
 * <p>An array larger than a page ({@link #allocateLarge}) is for a single oversized row. It costs
 * as many pages of the budget as it spans, is not recycled (such rows are rare, and keeping them
 * would pin budget in arrays of odd sizes), and evicts free pages when needed to stay in budget.
 *
 * <p>Not thread-safe: a pool belongs to one writer task and is used from its thread only. Pages are
 * handed out as they were released: contents are not cleared.
 */
public final class MemoryPool {
    /** The smallest page size accepted: enough for a couple of sort index entries. */
    public static final int MIN_PAGE_SIZE = 64;

    private final int pageSize;
    private final int maxPages;

    /** Recycled standard pages, a stack; grows (by doubling) only while pages are first created. */
    private byte[][] free = new byte[16][];

    private int freeCount;
    private int usedPages;
    private long allocatedPages;

    /**
     * A pool of {@code budgetBytes / pageSize} pages of {@code pageSize} bytes, a power of two of
     * at least {@link #MIN_PAGE_SIZE}.
     */
    public MemoryPool(long budgetBytes, int pageSize) {
        if (pageSize < MIN_PAGE_SIZE || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException(
                    "Invalid page size "
                            + pageSize
                            + ": must be a power of two of at least "
                            + MIN_PAGE_SIZE);
        }
        long pages = budgetBytes / pageSize;
        if (pages < 1 || pages > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "Invalid memory budget "
                            + budgetBytes
                            + " for pages of "
                            + pageSize
                            + " bytes");
        }
        this.pageSize = pageSize;
        this.maxPages = (int) pages;
    }

    /** A page of {@link #pageSize()} bytes, or null when the budget is exhausted. */
    public byte[] allocate() {
        if (usedPages >= maxPages) {
            return null;
        }
        usedPages++;
        if (freeCount > 0) {
            byte[] page = free[--freeCount];
            free[freeCount] = null;
            return page;
        }
        allocatedPages++;
        return new byte[pageSize];
    }

    /**
     * An array of at least {@code minBytes} bytes, rounded up to whole pages and counted as that
     * many pages of the budget, or null when the budget cannot cover it. A request that fits in one
     * page gets a standard page. Release it with {@link #release(byte[])} like a page.
     */
    public byte[] allocateLarge(int minBytes) {
        int pages = pagesFor(minBytes);
        if (pages <= 1) {
            return allocate();
        }
        if (pages > maxPages - usedPages) {
            return null;
        }
        usedPages += pages;
        // Drop free pages (to the garbage collector) so that the pages in use plus the pages kept
        // for reuse stay within the budget.
        while (freeCount > 0 && usedPages + freeCount > maxPages) {
            free[--freeCount] = null;
        }
        return new byte[pages * pageSize];
    }

    /**
     * Returns a page (or an array from {@link #allocateLarge}) to the pool. The caller must not use
     * it afterwards, and must release it only once.
     */
    public void release(byte[] page) {
        int length = page.length;
        if (length == pageSize) {
            checkReleasable(1);
            if (freeCount == free.length) {
                free = Arrays.copyOf(free, Math.min(maxPages, 2 * free.length));
            }
            free[freeCount++] = page;
            usedPages--;
        } else if (length > pageSize && length % pageSize == 0) {
            checkReleasable(length / pageSize);
            usedPages -= length / pageSize;
        } else {
            throw new IllegalArgumentException(
                    "Cannot release an array of "
                            + length
                            + " bytes to a pool of pages of "
                            + pageSize
                            + " bytes");
        }
    }

    /** Returns all of {@code pages} to the pool, as {@link #release(byte[])} does. */
    public void release(Collection<byte[]> pages) {
        for (byte[] page : pages) {
            release(page);
        }
    }

    /** The number of pages of the budget that a request would take for {@code bytes} bytes. */
    public int pagesFor(int bytes) {
        return bytes <= pageSize ? 1 : (int) (((long) bytes + pageSize - 1) / pageSize);
    }

    public int pageSize() {
        return pageSize;
    }

    /** The budget, in pages. */
    public int maxPages() {
        return maxPages;
    }

    /** Pages of the budget not in use: how many more pages {@link #allocate()} can return. */
    public int freePages() {
        return maxPages - usedPages;
    }

    /** Pages of the budget in use (handed out and not released; large arrays count their pages). */
    public int usedPages() {
        return usedPages;
    }

    /** Standard pages ever created: stops growing once the pool runs in steady state. */
    public long allocatedPages() {
        return allocatedPages;
    }

    private void checkReleasable(int pages) {
        if (pages > usedPages) {
            throw new IllegalStateException(
                    "Cannot release "
                            + pages
                            + " page(s): only "
                            + usedPages
                            + " in use (released twice, or not from this pool?)");
        }
    }

    @Override
    public String toString() {
        return "MemoryPool{pageSize="
                + pageSize
                + ", maxPages="
                + maxPages
                + ", usedPages="
                + usedPages
                + ", allocatedPages="
                + allocatedPages
                + "}";
    }
}
