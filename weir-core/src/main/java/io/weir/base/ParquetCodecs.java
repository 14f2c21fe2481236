package io.weir.base;

import io.weir.options.BaseFileCompression;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Map;

/**
 * Parquet page compression without Hadoop: parquet-java's default codec factory instantiates Hadoop
 * {@code CompressionCodec} classes even for codecs whose work is done by snappy-java and zstd-jni,
 * so Weir plugs in its own. SNAPPY pages are raw Snappy blocks and ZSTD pages are Zstandard frames,
 * exactly what Parquet specifies and what other implementations write.
 *
 * <p>One instance serves one writer or reader (one thread): compressors reuse their buffers, as
 * parquet-java's own do (a page writer copies the compressed bytes before the next call).
 * Decompressed pages get fresh arrays, because decoded values may keep pointing into them, except
 * where the column decoders hand them back ({@link PageArrays}).
 */
final class ParquetCodecs implements CompressionCodecFactory {
    /** The Zstandard level; the same default as parquet-java's. */
    static final int ZSTD_LEVEL = 3;

    private final Map<CompressionCodecName, BytesInputCompressor> compressors =
            new EnumMap<>(CompressionCodecName.class);
    private final Map<CompressionCodecName, BytesInputDecompressor> decompressors =
            new EnumMap<>(CompressionCodecName.class);
    private final PageArrays pageArrays = new PageArrays();

    static CompressionCodecName codecName(BaseFileCompression compression) {
        return switch (compression) {
            case UNCOMPRESSED -> CompressionCodecName.UNCOMPRESSED;
            case SNAPPY -> CompressionCodecName.SNAPPY;
            case ZSTD -> CompressionCodecName.ZSTD;
        };
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return compressors.computeIfAbsent(
                codec,
                c ->
                        switch (c) {
                            case UNCOMPRESSED -> new Uncompressed();
                            case SNAPPY -> new SnappyCompressor();
                            case ZSTD -> new ZstdCompressor();
                            default -> throw unsupported(c);
                        });
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return decompressors.computeIfAbsent(
                codec,
                c ->
                        switch (c) {
                            case UNCOMPRESSED -> new UncompressedDecompressor();
                            case SNAPPY -> new SnappyDecompressor(pageArrays);
                            case ZSTD -> new ZstdDecompressor(pageArrays);
                            default -> throw unsupported(c);
                        });
    }

    /** The arrays decompressed pages are written into. */
    PageArrays pageArrays() {
        return pageArrays;
    }

    @Override
    public void release() {
        compressors.values().forEach(BytesInputCompressor::release);
        decompressors.values().forEach(BytesInputDecompressor::release);
        compressors.clear();
        decompressors.clear();
    }

    private static UnsupportedOperationException unsupported(CompressionCodecName codec) {
        return new UnsupportedOperationException(
                "Unsupported Parquet compression codec "
                        + codec
                        + " (Weir base files use UNCOMPRESSED, SNAPPY or ZSTD)");
    }

    /**
     * A growable byte array that exposes its buffer, so input pages are gathered without copies.
     */
    private static final class Buffer extends ByteArrayOutputStream {
        byte[] gather(BytesInput input) throws IOException {
            reset();
            input.writeAllTo(this);
            return buf;
        }

        byte[] ensure(int capacity) {
            if (buf.length < capacity) {
                buf = new byte[Math.max(capacity, buf.length * 2)];
            }
            return buf;
        }
    }

    /** Compresses a contiguous array range into a reused output buffer; returns the length. */
    private abstract static class ArrayCompressor implements BytesInputCompressor {
        private final Buffer input = new Buffer();
        private final Buffer output = new Buffer();

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            byte[] in = input.gather(bytes);
            int length = input.size();
            byte[] out = output.ensure(maxCompressedLength(length));
            int written = compress(in, length, out);
            return BytesInput.from(out, 0, written);
        }

        abstract int maxCompressedLength(int length);

        abstract int compress(byte[] in, int length, byte[] out) throws IOException;

        @Override
        public void release() {}
    }

    private static final class SnappyCompressor extends ArrayCompressor {
        @Override
        int maxCompressedLength(int length) {
            return Snappy.maxCompressedLength(length);
        }

        @Override
        int compress(byte[] in, int length, byte[] out) throws IOException {
            return Snappy.compress(in, 0, length, out, 0);
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.SNAPPY;
        }
    }

    private static final class ZstdCompressor extends ArrayCompressor {
        private final ZstdCompressCtx ctx = new ZstdCompressCtx().setLevel(ZSTD_LEVEL);

        @Override
        int maxCompressedLength(int length) {
            return (int) Zstd.compressBound(length);
        }

        @Override
        int compress(byte[] in, int length, byte[] out) {
            return ctx.compressByteArray(out, 0, out.length, in, 0, length);
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.ZSTD;
        }

        @Override
        public void release() {
            ctx.close();
        }
    }

    private static final class Uncompressed implements BytesInputCompressor {
        @Override
        public BytesInput compress(BytesInput bytes) {
            return bytes;
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.UNCOMPRESSED;
        }

        @Override
        public void release() {}
    }

    /** Decompresses exactly the size the page header announces, into an array of the pool. */
    private abstract static class ArrayDecompressor implements BytesInputDecompressor {
        private final Buffer input = new Buffer();
        private final PageArrays pageArrays;

        ArrayDecompressor(PageArrays pageArrays) {
            this.pageArrays = pageArrays;
        }

        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
            byte[] in = input.gather(bytes);
            byte[] out = pageArrays.take(uncompressedSize);
            decompress(in, 0, input.size(), out, uncompressedSize);
            return BytesInput.from(out, 0, uncompressedSize);
        }

        @Override
        public void decompress(ByteBuffer in, int inLength, ByteBuffer out, int outLength)
                throws IOException {
            byte[] src = new byte[inLength];
            in.duplicate().get(src);
            byte[] dst = new byte[outLength];
            decompress(src, 0, inLength, dst, outLength);
            out.put(dst);
        }

        /** Fills exactly {@code outLength} bytes of {@code out}, or fails. */
        abstract void decompress(byte[] in, int off, int len, byte[] out, int outLength)
                throws IOException;

        @Override
        public void release() {}
    }

    private static final class SnappyDecompressor extends ArrayDecompressor {
        SnappyDecompressor(PageArrays pageArrays) {
            super(pageArrays);
        }

        @Override
        void decompress(byte[] in, int off, int len, byte[] out, int outLength) throws IOException {
            if (Snappy.uncompressedLength(in, off, len) != outLength) {
                throw new IOException(
                        "Snappy page decompresses to "
                                + Snappy.uncompressedLength(in, off, len)
                                + " bytes, the page header says "
                                + outLength);
            }
            Snappy.uncompress(in, off, len, out, 0);
        }
    }

    private static final class ZstdDecompressor extends ArrayDecompressor {
        private final ZstdDecompressCtx ctx = new ZstdDecompressCtx();

        ZstdDecompressor(PageArrays pageArrays) {
            super(pageArrays);
        }

        @Override
        void decompress(byte[] in, int off, int len, byte[] out, int outLength) throws IOException {
            int n = ctx.decompressByteArray(out, 0, outLength, in, off, len);
            if (n != outLength) {
                throw new IOException(
                        "Zstd page decompresses to "
                                + n
                                + " bytes, the page header says "
                                + outLength);
            }
        }

        @Override
        public void release() {
            ctx.close();
        }
    }

    private static final class UncompressedDecompressor implements BytesInputDecompressor {
        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) {
            return bytes;
        }

        @Override
        public void decompress(ByteBuffer in, int inLength, ByteBuffer out, int outLength) {
            ByteBuffer src = in.duplicate();
            src.limit(src.position() + inLength);
            out.put(src);
        }

        @Override
        public void release() {}
    }
}
