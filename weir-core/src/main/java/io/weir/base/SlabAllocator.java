package io.weir.base;

import org.apache.parquet.bytes.ByteBufferAllocator;

import java.nio.ByteBuffer;
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

    private final SizeClassArrays kept = new SizeClassArrays(MIN_SIZE, MAX_SIZE, MAX_KEPT_BYTES);
    private final Set<byte[]> lent = Collections.newSetFromMap(new IdentityHashMap<>());

    @Override
    public ByteBuffer allocate(int size) {
        if (size > MAX_SIZE) {
            return ByteBuffer.allocate(size);
        }
        byte[] array = kept.take(size);
        lent.add(array);
        // A buffer of exactly the size asked for: the encoders fill a buffer to its capacity.
        return ByteBuffer.wrap(array, 0, size).slice();
    }

    @Override
    public void release(ByteBuffer buffer) {
        // Only a buffer lent here and not yet released: not one of ByteBuffer.allocate, not twice.
        if (buffer.hasArray() && lent.remove(buffer.array())) {
            kept.give(buffer.array());
        }
    }

    @Override
    public boolean isDirect() {
        return false;
    }

    /** Bytes waiting for reuse. */
    long keptBytes() {
        return kept.keptBytes();
    }
}
