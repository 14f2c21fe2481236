package io.weir.io;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The aligned native buffers of the direct streams: at most {@link #MAX_BUFFERS} exist in the JVM,
 * each allocated once and handed from stream to stream. A stream that finds none free goes through
 * the page cache instead, as it does where the file system takes no direct I/O.
 *
 * <p>Why a fixed number. Allocating a buffer zeroes it, and on the benchmark machine touching fresh
 * memory costs more than the I/O it buffers. And a native buffer that is let go is freed only when
 * the collector finds its owner, which may sit in the old generation for minutes: when more streams
 * were open at once than the free list kept, the buffers dropped at each close held native memory
 * that grew with the number of file groups written (docs/benchmark.md, "Memory against fan-out with
 * a bounded heap"). With a fixed number, direct I/O never holds more than {@code MAX_BUFFERS *
 * SIZE} bytes, whatever the fan-out. The streams give their buffers back in {@code close()}, which
 * {@code abort()} calls too; a stream never closed would keep its buffer, and later streams would
 * find one fewer.
 */
final class AlignedBuffers {
    /** The capacity of every buffer: a multiple of any alignment used. */
    static final int SIZE = 1 << 20;

    /**
     * The most buffers that exist at once: twice {@link DirectInputStream#MAX_OPEN}, so that
     * streams writing (one buffer each, and a second one to write behind) have as many as the most
     * streams reading.
     */
    static final int MAX_BUFFERS = 2 * DirectInputStream.MAX_OPEN;

    private static final ArrayBlockingQueue<ByteBuffer> FREE =
            new ArrayBlockingQueue<>(MAX_BUFFERS);

    private static final AtomicInteger ALLOCATED = new AtomicInteger();

    private AlignedBuffers() {}

    /**
     * A cleared buffer of {@link #SIZE} bytes whose address is a multiple of {@code alignment}, or
     * null when all {@link #MAX_BUFFERS} are in use or the JVM's limit on native memory is reached
     * (a Flink task manager sets it tight).
     */
    static ByteBuffer takeOrNull(int alignment) {
        ByteBuffer free = FREE.poll();
        if (free != null) {
            if (free.alignmentOffset(0, alignment) == 0) {
                return free.clear();
            }
            FREE.offer(free); // aligned for another file system: kept for its streams
        }
        if (ALLOCATED.incrementAndGet() > MAX_BUFFERS) {
            ALLOCATED.decrementAndGet();
            return null;
        }
        try {
            return ByteBuffer.allocateDirect(SIZE + alignment)
                    .alignedSlice(alignment)
                    .slice(0, SIZE);
        } catch (OutOfMemoryError e) {
            ALLOCATED.decrementAndGet();
            return null;
        }
    }

    /** Returns a buffer of {@link #takeOrNull} that its stream no longer uses. */
    static void give(ByteBuffer buffer) {
        // Never refused: the queue holds as many as can exist.
        FREE.offer(buffer.clear());
    }

    /** The buffers allocated so far, free or in use; at most {@link #MAX_BUFFERS}. */
    static int allocated() {
        return ALLOCATED.get();
    }
}
