package io.weir.log;

import io.weir.options.LogCodec;

import java.util.zip.CRC32C;

/**
 * The memory and codec state of a {@link LogFileWriter}, to be reused by the writers of files that
 * are written one after another: a table writer's flush writes one log file per file group, and
 * without sharing each of them would allocate its own block buffer (growing to the block size),
 * compression buffer, compressor and CRC state, and would try again to compress the first blocks of
 * rows that the files before it showed not to compress.
 *
 * <p>One writer at a time: a {@link LogFileWriter} takes the buffers when it is created and gives
 * them back when it is closed or aborted. Not thread-safe. {@link #close()} releases the codec's
 * native state.
 */
public final class LogWriteBuffers implements AutoCloseable {
    private final LogCodec codec;
    final CRC32C crc = new CRC32C();

    /** The block being filled, and the compressed block: kept at their grown sizes. */
    byte[] block;

    byte[] compressed = new byte[0];

    /** How poorly the last blocks compressed, for the next writer ({@link LogFileWriter}'s). */
    int poorBlocks;

    /** Blocks the next writer stores before it tries to compress one again. */
    int skipCompression;

    private BlockCodec compressor;
    private boolean inUse;
    private boolean closed;

    public LogWriteBuffers(LogCodec codec) {
        this.codec = codec;
    }

    public LogCodec codec() {
        return codec;
    }

    /** Taken by a writer; fails if another writer holds them. */
    void acquire(String path) {
        if (closed) {
            throw new IllegalStateException("Log write buffers are closed (writing " + path + ")");
        }
        if (inUse) {
            throw new IllegalStateException(
                    "Log write buffers are in use by another writer (writing " + path + ")");
        }
        inUse = true;
    }

    void release() {
        inUse = false;
    }

    /** The compressor (created on first use), or null for codec NONE. */
    BlockCodec compressor() {
        if (compressor == null && codec != LogCodec.NONE) {
            compressor = BlockCodec.create(codec);
        }
        return compressor;
    }

    @Override
    public void close() {
        closed = true;
        if (compressor != null) {
            compressor.close();
            compressor = null;
        }
        block = null;
        compressed = null;
    }
}
