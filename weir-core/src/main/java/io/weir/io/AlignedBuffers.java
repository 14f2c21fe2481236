package io.weir.io;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * The aligned native buffers of the direct streams, kept for the next stream when one closes:
 * allocating one zeroes it, and on the benchmark machine touching fresh memory costs more than the
 * I/O it buffers.
 */
final class AlignedBuffers {
    /** The capacity of every buffer: a multiple of any alignment used. */
    static final int SIZE = 1 << 20;

    private static final ArrayBlockingQueue<ByteBuffer> FREE = new ArrayBlockingQueue<>(16);

    private AlignedBuffers() {}

    /**
     * A cleared buffer of {@link #SIZE} bytes whose address is a multiple of {@code alignment}.
     *
     * @throws OutOfMemoryError when the JVM's limit on native buffers is reached
     */
    static ByteBuffer take(int alignment) {
        ByteBuffer b = FREE.poll();
        if (b != null && b.alignmentOffset(0, alignment) == 0) {
            return b.clear();
        }
        return ByteBuffer.allocateDirect(SIZE + alignment).alignedSlice(alignment).slice(0, SIZE);
    }

    /** Returns a buffer of {@link #take} that its stream no longer uses. */
    static void give(ByteBuffer buffer) {
        FREE.offer(buffer.clear());
    }
}
