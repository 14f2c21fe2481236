package io.weir.log;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

import java.util.zip.DataFormatException;

/**
 * Raw LZ4 blocks (no LZ4 frame). Decompresses only with the safe decompressor: the fast one trusts
 * its input (CVE-2025-12183), and a log file is input.
 */
final class Lz4BlockCodec implements BlockCodec {
    private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();

    private final LZ4Compressor compressor = FACTORY.fastCompressor();
    private final LZ4SafeDecompressor decompressor = FACTORY.safeDecompressor();

    @Override
    public LogCodec codec() {
        return LogCodec.LZ4;
    }

    @Override
    public int maxCompressedLength(int rawLength) {
        return compressor.maxCompressedLength(rawLength);
    }

    @Override
    public int compress(
            byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstCapacity) {
        return compressor.compress(src, srcOff, srcLen, dst, dstOff, dstCapacity);
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
    public void close() {}
}
