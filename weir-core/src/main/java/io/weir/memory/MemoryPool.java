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
 * <p>A pool may also hand out <em>slabs</em> ({@link #allocateSlab}) for rows: arrays of one G1
 * heap region ({@link HeapRegions}). G1 allocates an array that large straight into the old
 * generation and never copies it, where a buffer of 64 KB pages is born in the young generation and
 * copied by every young collection until it is promoted: with a 256 MB buffer that copying, and the
 * heap growth it provokes, cost more CPU than the writer's own work on wide rows
 * (docs/performance.md, fourteenth round). A slab costs as many pages of the budget as its length
 * spans ({@link #pagesFor}), is recycled like a page, and is used only when the budget holds at
 * least {@link #MIN_SLABS}.
 *
 * <p>Not thread-safe: a pool belongs to one writer task and is used from its thread only. Pages are
 * handed out as they were released: contents are not cleared.
 */
public final class MemoryPool {
    /** The smallest page size accepted: enough for a couple of sort index entries. */
    public static final int MIN_PAGE_SIZE = 64;

    /** The fewest slabs a budget must hold for the pool to hand out slabs at all. */
    public static final int MIN_SLABS = 8;

    private final int pageSize;
    private final int maxPages;
    private final int slabBytes;
    private final int slabPages;

    /** Recycled standard pages, a stack; grows (by doubling) only while pages are first created. */
    private byte[][] free = new byte[16][];

    private int freeCount;

    /** Recycled slabs, a stack. */
    private byte[][] freeSlabs = new byte[4][];

    private int freeSlabCount;
    private int usedPages;
    private long allocatedPages;
    private long allocatedSlabs;

    /**
     * A pool of {@code budgetBytes / pageSize} pages of {@code pageSize} bytes, a power of two of
     * at least {@link #MIN_PAGE_SIZE}, without slabs.
     */
    public MemoryPool(long budgetBytes, int pageSize) {
        this(budgetBytes, pageSize, 0);
    }

    /**
     * A writer's pool: with slabs of one heap region when the JVM runs G1 ({@link
     * HeapRegions#slabBytes()}) and the budget holds at least {@link #MIN_SLABS} of them.
     */
    public static MemoryPool forRows(long budgetBytes, int pageSize) {
        return new MemoryPool(budgetBytes, pageSize, HeapRegions.slabBytes());
    }

    /**
     * A pool of {@code budgetBytes / pageSize} pages that also hands out slabs of {@code slabBytes}
     * bytes (0: none), if they are larger than a page and the budget holds at least {@link
     * #MIN_SLABS} of them.
     */
    public MemoryPool(long budgetBytes, int pageSize, int slabBytes) {
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
        if (slabBytes < 0) {
            throw new IllegalArgumentException("Invalid slab size " + slabBytes);
        }
        this.pageSize = pageSize;
        this.maxPages = (int) pages;
        boolean slabs = slabBytes > pageSize && (long) MIN_SLABS * pagesFor(slabBytes) <= pages;
        this.slabBytes = slabs ? slabBytes : 0;
        this.slabPages = slabs ? pagesFor(slabBytes) : 0;
    }

    /** A page of {@link #pageSize()} bytes, or null when the budget is exhausted. */
    public byte[] allocate() {
        if (usedPages >= maxPages) {
            return null;
        }
        if (freeCount > 0) {
            usedPages++;
            byte[] page = free[--freeCount];
            free[freeCount] = null;
            return page;
        }
        trimFree(1);
        usedPages++;
        allocatedPages++;
        return new byte[pageSize];
    }

    /**
     * A slab of {@link #slabBytes()} bytes, or null when the pool has no slabs or fewer than {@code
     * reservePages} + {@link #slabPages()} free pages of the budget (the caller's next needs come
     * first). Release it with {@link #release(byte[])} like a page.
     */
    public byte[] allocateSlab(int reservePages) {
        if (slabBytes == 0 || freePages() - reservePages < slabPages) {
            return null;
        }
        if (freeSlabCount > 0) {
            usedPages += slabPages;
            byte[] slab = freeSlabs[--freeSlabCount];
            freeSlabs[freeSlabCount] = null;
            return slab;
        }
        trimFree(slabPages);
        usedPages += slabPages;
        allocatedSlabs++;
        return new byte[slabBytes];
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
        trimFree(pages);
        usedPages += pages;
        return new byte[pages * pageSize];
    }

    /**
     * Drops free pages, then free slabs (to the garbage collector), until {@code pages} more pages
     * created anew keep the pages in use plus those kept for reuse within the budget.
     */
    private void trimFree(int pages) {
        while (freeCount > 0 && heldPages() + pages > maxPages) {
            free[--freeCount] = null;
        }
        while (freeSlabCount > 0 && heldPages() + pages > maxPages) {
            freeSlabs[--freeSlabCount] = null;
        }
    }

    private long heldPages() {
        return (long) usedPages + freeCount + (long) freeSlabCount * slabPages;
    }

    /**
     * Returns a page (or an array from {@link #allocateLarge}) to the pool. The caller must not use
     * it afterwards, and must release it only once.
     */
    public void release(byte[] page) {
        int length = page.length;
        if (slabBytes > 0 && length == slabBytes) {
            // Also takes a large array of the same length: it costs the same pages.
            checkReleasable(slabPages);
            if (freeSlabCount == freeSlabs.length) {
                freeSlabs = Arrays.copyOf(freeSlabs, 2 * freeSlabs.length);
            }
            freeSlabs[freeSlabCount++] = page;
            usedPages -= slabPages;
        } else if (length == pageSize) {
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

    /** Slabs ever created: stops growing once the pool runs in steady state. */
    public long allocatedSlabs() {
        return allocatedSlabs;
    }

    /** The length of this pool's slabs, or 0 if it has none. */
    public int slabBytes() {
        return slabBytes;
    }

    /** The pages of the budget a slab costs (0 without slabs). */
    public int slabPages() {
        return slabPages;
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
                + ", slabBytes="
                + slabBytes
                + "}";
    }
}
