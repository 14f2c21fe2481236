package io.weir.log;

import io.weir.options.LogCodec;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4JNIFastResetCompressor;
import net.jpountz.lz4.LZ4SafeDecompressor;

import java.util.zip.DataFormatException;

/**
 * Raw LZ4 blocks (no LZ4 frame). Compresses with LZ4's native compressor at acceleration {@link
 * BlockCodec#LZ4_ACCELERATION}, reusing its state from block to block; where that compressor is not
 * available (no native library for the platform, or an older lz4-java earlier on the classpath),
 * with lz4-java's fastest compressor at the default acceleration. Decompresses only with the safe
 * decompressor: the fast one trusts its input (CVE-2025-12183), and a log file is input.
 */
final class Lz4BlockCodec implements BlockCodec {
    private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();

    /** Stateless (shared by all threads): the fallback, and the bound on compressed sizes. */
    private static final LZ4Compressor FALLBACK = FACTORY.fastCompressor();

    private final LZ4SafeDecompressor decompressor = FACTORY.safeDecompressor();

    /**
     * Created by the first {@link #compress}: readers only decompress, and the native compressor
     * holds native memory until {@link #close()}. Null: the fallback compresses.
     */
    private Accelerated accelerated;

    /** Whether {@link #compress} has chosen between the native compressor and the fallback. */
    private boolean chosen;

    @Override
    public LogCodec codec() {
        return LogCodec.LZ4;
    }

    @Override
    public int maxCompressedLength(int rawLength) {
        return FALLBACK.maxCompressedLength(rawLength);
    }

    @Override
    public int compress(
            byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstCapacity) {
        if (!chosen) {
            accelerated = acceleratedOrNull(LZ4_ACCELERATION);
            chosen = true;
        }
        if (accelerated != null) {
            return accelerated.compressor.compress(src, srcOff, srcLen, dst, dstOff, dstCapacity);
        }
        return FALLBACK.compress(src, srcOff, srcLen, dst, dstOff, dstCapacity);
    }

    /** The acceleration blocks are compressed at: the fallback's is LZ4's default, 1 (tests). */
    int acceleration() {
        return accelerated != null ? accelerated.compressor.getAcceleration() : 1;
    }

    /** The native compressor at {@code acceleration}, or null where there is none. */
    static Accelerated acceleratedOrNull(int acceleration) {
        try {
            return new Accelerated(acceleration);
        } catch (LinkageError | RuntimeException e) {
            // No JNI library for this platform, or an lz4-java before 1.11 first on the classpath
            // (flink-dist's 1.8): the class or the method does not exist.
            return null;
        }
    }

    @Override
    public void decompress(
            byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int rawLength)
            throws DataFormatException {
        int n;
        try {
            n = decompressor.decompress(src, srcOff, srcLen, dst, dstOff, rawLength);
        } catch (LZ4Exception e) {
            throw new DataFormatException("malformed LZ4 data (" + e.getMessage() + ")");
        }
        if (n != rawLength) {
            throw new DataFormatException(
                    "LZ4 data decompresses to " + n + " bytes, the header says " + rawLength);
        }
    }

    @Override
    public void close() {
        if (accelerated != null) {
            accelerated.compressor.close();
            accelerated = null;
        }
        // Should it be used again anyway, it must not allocate native state nobody frees.
        chosen = true;
    }

    /**
     * The fork's native compressor with reusable state. A class of its own, so that where the
     * lz4-java on the classpath lacks it, only creating one fails, and nothing else in this codec.
     */
    static final class Accelerated {
        final LZ4JNIFastResetCompressor compressor;

        Accelerated(int acceleration) {
            this.compressor = LZ4Factory.nativeInstance().fastResetCompressor(acceleration);
        }
    }
}
