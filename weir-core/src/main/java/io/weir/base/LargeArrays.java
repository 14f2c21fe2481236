package io.weir.base;

/**
 * Large byte arrays kept for reuse across files: the page slabs of the Parquet files a thread
 * writes ({@link RowGroupPages}) and the column chunks of those it reads ({@link ChunkAllocator}).
 * Arrays of {@link #MIN_SIZE} bytes and more are allocated at a power of two and taken back when
 * their file is done with them; smaller ones are plain allocations.
 *
 * <p>Why. Under G1 an array of half a heap region or more is a humongous object: it is allocated
 * outside the young generation, zeroed, and each such allocation may start a concurrent marking
 * cycle. Compaction rewrites file after file, and without reuse every output file allocated its
 * slabs and every input row group its chunks anew: hundreds of humongous allocations a minute,
 * whose marking cycles and mixed collections made G1 grow the heap (docs/performance.md, "Large
 * arrays kept across files").
 *
 * <p>At most {@link #MAX_KEPT_BYTES} bytes wait here for reuse; an array given back beyond that is
 * left to the collector. Arrays in use are not counted: they belong to their file until given back.
 * Thread-safe.
 */
final class LargeArrays {
    /** The smallest array kept: half a G1 region of the smallest size (1 MB). */
    static final int MIN_SIZE = 512 << 10;

    /** The largest array kept; larger requests are plain allocations. */
    static final int MAX_SIZE = 16 << 20;

    /** The most bytes kept free for reuse: 256 MB, or a sixteenth of the heap if less. */
    static final long MAX_KEPT_BYTES = Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16);

    private static final SizeClassArrays KEPT =
            new SizeClassArrays(MIN_SIZE, MAX_SIZE, MAX_KEPT_BYTES);

    private LargeArrays() {}

    /**
     * An array of at least {@code size} bytes: a kept one if there is one of its size class (its
     * contents are whatever its last user left), else a new one.
     */
    static byte[] take(int size) {
        if (size < MIN_SIZE || size > MAX_SIZE) {
            return new byte[size];
        }
        synchronized (KEPT) {
            return KEPT.take(size);
        }
    }

    /**
     * Takes back an array of {@link #take} that nothing reads or writes any more; other arrays, and
     * arrays beyond {@link #MAX_KEPT_BYTES}, are left to the collector.
     */
    static void give(byte[] array) {
        synchronized (KEPT) {
            KEPT.give(array);
        }
    }

    /** The bytes kept for reuse now (for tests). */
    static long keptBytes() {
        synchronized (KEPT) {
            return KEPT.keptBytes();
        }
    }

    /** Drops every kept array (for tests). */
    static void clear() {
        synchronized (KEPT) {
            KEPT.clear();
        }
    }
}
