package io.weir.base;

import java.util.ArrayDeque;

/**
 * Byte arrays kept for reuse by size class: arrays of a power of two from {@code minSize} to {@code
 * maxSize} bytes, at most {@code maxKeptBytes} of them waiting. The one mechanism behind the
 * JVM-wide {@link LargeArrays} and the per-file {@link SlabAllocator}, which add their own rules of
 * what may be given back and their own locking. Not thread-safe.
 */
final class SizeClassArrays {
    private final int minShift;
    private final int maxSize;
    private final long maxKeptBytes;
    private final ArrayDeque<byte[]>[] free;
    private long keptBytes;

    /**
     * @param minSize the smallest array, a power of two; smaller requests get one of this size
     * @param maxSize the largest array kept, a power of two
     * @param maxKeptBytes the most bytes waiting for reuse
     */
    @SuppressWarnings("unchecked")
    SizeClassArrays(int minSize, int maxSize, long maxKeptBytes) {
        if (Integer.bitCount(minSize) != 1 || Integer.bitCount(maxSize) != 1 || minSize > maxSize) {
            throw new IllegalArgumentException(
                    "Invalid size classes " + minSize + " to " + maxSize + " bytes");
        }
        this.minShift = Integer.numberOfTrailingZeros(minSize);
        this.maxSize = maxSize;
        this.maxKeptBytes = maxKeptBytes;
        this.free = new ArrayDeque[Integer.numberOfTrailingZeros(maxSize) - minShift + 1];
        for (int i = 0; i < free.length; i++) {
            free[i] = new ArrayDeque<>();
        }
    }

    /**
     * An array of at least {@code size} bytes, a power of two: a kept one of its size class (its
     * contents are whatever its last user left), else a new one. {@code size} is at most the
     * largest size class.
     */
    byte[] take(int size) {
        int sizeClass = sizeClass(size);
        byte[] kept = free[sizeClass].pollLast();
        if (kept == null) {
            return new byte[1 << (minShift + sizeClass)];
        }
        keptBytes -= kept.length;
        return kept;
    }

    /**
     * Keeps {@code array} for reuse if it is of a size class and the kept bytes allow; the caller
     * must not use it any more either way.
     */
    void give(byte[] array) {
        int length = array.length;
        if (length < (1 << minShift)
                || length > maxSize
                || Integer.bitCount(length) != 1
                || keptBytes + length > maxKeptBytes) {
            return;
        }
        free[sizeClass(length)].addLast(array);
        keptBytes += length;
    }

    /** Bytes waiting for reuse. */
    long keptBytes() {
        return keptBytes;
    }

    /** Drops every kept array. */
    void clear() {
        for (ArrayDeque<byte[]> classArrays : free) {
            classArrays.clear();
        }
        keptBytes = 0;
    }

    private int sizeClass(int size) {
        int bits = 32 - Integer.numberOfLeadingZeros(Math.max(size, 1 << minShift) - 1);
        return bits - minShift;
    }
}
