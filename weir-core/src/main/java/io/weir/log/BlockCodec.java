package io.weir.log;

import io.weir.options.LogCodec;

import java.util.zip.DataFormatException;

/**
 * Compresses and decompresses block payloads. An instance holds reusable native or Java state and
 * is used by one thread; NONE has no codec (its payload is stored as is, with no copy).
 */
interface BlockCodec extends AutoCloseable {

    /** The zstd level: level 1 is zstd's fastest standard level, and log files are short-lived. */
    int ZSTD_LEVEL = 1;

    /**
     * LZ4's acceleration (the {@code lz4 --fast=N} level): from 4 on, LZ4 steps faster over bytes
     * where it finds no match. On the benchmark's blocks (docs/performance.md, eighth round) it
     * compresses 2.0x faster than the default of 1 for 10 % more bytes on schema1's rows, and
     * 1.5-1.8x faster for under 1 % more on the string-heavy ones; log files are short-lived.
     */
    int LZ4_ACCELERATION = 4;

    LogCodec codec();

    /** The capacity {@link #compress} needs in {@code dst} for {@code rawLength} bytes. */
    int maxCompressedLength(int rawLength);

    /** Compresses {@code src} into {@code dst} and returns the compressed length. */
    int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstCapacity);

    /**
     * Decompresses {@code src} into exactly {@code rawLength} bytes of {@code dst}.
     *
     * @throws DataFormatException if the input is malformed or does not decompress to exactly
     *     {@code rawLength} bytes
     */
    void decompress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int rawLength)
            throws DataFormatException;

    /** Releases native state; the codec is unusable afterwards. */
    @Override
    void close();

    static BlockCodec create(LogCodec codec) {
        return switch (codec) {
            case LZ4 -> new Lz4BlockCodec();
            case ZSTD -> new ZstdBlockCodec(ZSTD_LEVEL);
            case NONE ->
                    throw new IllegalArgumentException(
                            "Codec NONE has no block codec: its payload is stored as is");
        };
    }
}
