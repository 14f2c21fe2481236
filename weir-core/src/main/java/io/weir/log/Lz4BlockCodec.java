package io.weir.log;

import io.weir.options.LogCodec;

import java.util.zip.DataFormatException;

/**
 * Raw LZ4 blocks (no LZ4 frame). Compresses with LZ4's native compressor at acceleration {@link
 * BlockCodec#LZ4_ACCELERATION}, reusing its state from block to block, from the lz4-java that
 * {@link Lz4Library} loads whatever the classpath order; where that compressor is not available,
 * with lz4-java's fastest compressor at the default acceleration. Decompresses only with the safe
 * decompressor: the fast one trusts its input (CVE-2025-12183), and a log file is input.
 */
final class Lz4BlockCodec implements BlockCodec {
    private final Lz4Library library;

    /**
     * Created by the first {@link #compress}: readers only decompress, and the native compressor
     * holds native memory until {@link #close()}. Null until then, and after {@link #close()}.
     */
    private Object compressor;

    /** Closed: compresses with a stateless compressor, so that nothing is left to free. */
    private boolean closed;

    Lz4BlockCodec() {
        this(Lz4Library.CURRENT);
    }

    Lz4BlockCodec(Lz4Library library) {
        this.library = library;
    }

    @Override
    public LogCodec codec() {
        return LogCodec.LZ4;
    }

    @Override
    public int maxCompressedLength(int rawLength) {
        return library.maxCompressedLength(rawLength);
    }

    @Override
    public int compress(
            byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstCapacity) {
        if (compressor == null) {
            // Used again after close(): it must not allocate native state nobody frees.
            compressor = closed ? library.statelessCompressor() : library.newCompressor();
        }
        return library.compress(compressor, src, srcOff, srcLen, dst, dstOff, dstCapacity);
    }

    /** The acceleration blocks are compressed at (tests). */
    int acceleration() {
        return closed ? 1 : library.acceleration();
    }

    @Override
    public void decompress(
            byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int rawLength)
            throws DataFormatException {
        int n;
        try {
            n = library.decompress(src, srcOff, srcLen, dst, dstOff, rawLength);
        } catch (Lz4Library.MalformedLz4Exception e) {
            throw new DataFormatException("malformed LZ4 data (" + e.getMessage() + ")");
        }
        if (n != rawLength) {
            throw new DataFormatException(
                    "LZ4 data decompresses to " + n + " bytes, the header says " + rawLength);
        }
    }

    @Override
    public void close() {
        if (compressor != null && !closed) {
            library.release(compressor);
        }
        compressor = null;
        closed = true;
    }
}
