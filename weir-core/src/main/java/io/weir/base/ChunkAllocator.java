package io.weir.base;

import org.apache.parquet.bytes.ByteBufferAllocator;

import java.nio.ByteBuffer;

/**
 * The buffers parquet-java reads a row group's column chunks into (up to 8 MB each): large ones
 * come from {@link LargeArrays} and go back there when the base file reader closes the row group's
 * page store, so that the files a compaction reads one after another reuse them. A buffer is as
 * long as asked for, over an array that may be longer.
 */
final class ChunkAllocator implements ByteBufferAllocator {
    static final ChunkAllocator INSTANCE = new ChunkAllocator();

    private ChunkAllocator() {}

    @Override
    public ByteBuffer allocate(int size) {
        return ByteBuffer.wrap(LargeArrays.take(size), 0, size);
    }

    @Override
    public void release(ByteBuffer buffer) {
        LargeArrays.give(buffer.array());
    }

    @Override
    public boolean isDirect() {
        return false;
    }
}
