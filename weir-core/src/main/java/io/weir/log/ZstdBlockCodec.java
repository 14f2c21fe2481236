package io.weir.log;

import io.weir.options.LogCodec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;

import java.util.zip.DataFormatException;

/**
 * One zstd frame per block (zstd's own checksum off: the block has a CRC-32C). The native contexts
 * are created on first use and reused for every block.
 */
final class ZstdBlockCodec implements BlockCodec {
    private final int level;
    private ZstdCompressCtx compressCtx;
    private ZstdDecompressCtx decompressCtx;

    ZstdBlockCodec(int level) {
        this.level = level;
    }

    @Override
    public LogCodec codec() {
        return LogCodec.ZSTD;
    }

    @Override
    public int maxCompressedLength(int rawLength) {
        return Math.toIntExact(Zstd.compressBound(rawLength));
    }

    @Override
    public int compress(
            byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstCapacity) {
        if (compressCtx == null) {
            compressCtx = new ZstdCompressCtx().setLevel(level).setChecksum(false);
        }
        return compressCtx.compressByteArray(dst, dstOff, dstCapacity, src, srcOff, srcLen);
    }

    @Override
    public void decompress(
            byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int rawLength)
            throws DataFormatException {
        if (decompressCtx == null) {
            decompressCtx = new ZstdDecompressCtx();
        }
        int n;
        try {
            n = decompressCtx.decompressByteArray(dst, dstOff, rawLength, src, srcOff, srcLen);
        } catch (ZstdException e) {
            throw new DataFormatException("malformed zstd data (" + e.getMessage() + ")");
        }
        if (n != rawLength) {
            throw new DataFormatException(
                    "zstd data decompresses to " + n + " bytes, the header says " + rawLength);
        }
    }

    @Override
    public void close() {
        if (compressCtx != null) {
            compressCtx.close();
            compressCtx = null;
        }
        if (decompressCtx != null) {
            decompressCtx.close();
            decompressCtx = null;
        }
    }
}
