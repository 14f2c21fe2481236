package io.weir.base;

import org.apache.parquet.bytes.ByteBufferAllocator;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The buffers of parquet-java's value encoders for one file being written (delta-packed integers,
 * dictionary indexes, dictionary pages): the buffers an encoder releases when its page has been
 * written are handed out again, to the next page of any column of the file.
 *
 * <p>Why. parquet-java's encoders take new buffers for every page and release them after it, and
 * its default allocator leaves released buffers to the collector: a file allocated (and the JVM
 * zeroed) about twice its encoded bytes in buffers. Compaction writes file after file of them.
 *
 * <p>Buffers are arrays of a power of two from {@link #MIN_SIZE} bytes, each lent as a buffer of
 * exactly the size asked for. Only a buffer lent here and not yet released is taken back, once; at
 * most {@link #MAX_KEPT_BYTES} wait for reuse. One file, one thread: not thread-safe.
 */
final class SlabAllocator implements ByteBufferAllocator {
    static final int MIN_SIZE = 64;

    /** The largest array kept; larger requests are plain allocations. */
    static final int MAX_SIZE = 16 << 20;

    /** The most bytes kept free for reuse. */
    static final long MAX_KEPT_BYTES = 64L << 20;

    private static final int MIN_SHIFT = Integer.numberOfTrailingZeros(MIN_SIZE);

    private final ArrayDeque<byte[]>[] free;
    private final Set<byte[]> lent = Collections.newSetFromMap(new IdentityHashMap<>());
    private long keptBytes;

    @SuppressWarnings("unchecked")
    SlabAllocator() {
        free = new ArrayDeque[Integer.numberOfTrailingZeros(MAX_SIZE) - MIN_SHIFT + 1];
        for (int i = 0; i < free.length; i++) {
            free[i] = new ArrayDeque<>();
        }
    }

    @Override
    public ByteBuffer allocate(int size) {
        if (size > MAX_SIZE) {
            return ByteBuffer.allocate(size);
        }
        int sizeClass = sizeClass(size);
        byte[] array = free[sizeClass].pollLast();
        if (array == null) {
            array = new byte[MIN_SIZE << sizeClass];
        } else {
            keptBytes -= array.length;
        }
        lent.add(array);
        // A buffer of exactly the size asked for: the encoders fill a buffer to its capacity.
        return ByteBuffer.wrap(array, 0, size).slice();
    }

    @Override
    public void release(ByteBuffer buffer) {
        if (!buffer.hasArray()) {
            return;
        }
        byte[] array = buffer.array();
        if (!lent.remove(array)) {
            return; // not lent here, or released already
        }
        if (keptBytes + array.length <= MAX_KEPT_BYTES) {
            free[sizeClass(array.length)].addLast(array);
            keptBytes += array.length;
        }
    }

    @Override
    public boolean isDirect() {
        return false;
    }

    /** Bytes waiting for reuse. */
    long keptBytes() {
        return keptBytes;
    }

    private static int sizeClass(int size) {
        int bits = 32 - Integer.numberOfLeadingZeros(Math.max(size, MIN_SIZE) - 1);
        return bits - MIN_SHIFT;
    }
}
