package io.weir.base;

import io.weir.options.BaseFileCompression;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParquetCodecsTest {

    @ParameterizedTest
    @EnumSource(BaseFileCompression.class)
    void pagesRoundTrip(BaseFileCompression compression) throws IOException {
        CompressionCodecName codec = ParquetCodecs.codecName(compression);
        ParquetCodecs codecs = new ParquetCodecs();
        BytesInputCompressor compressor = codecs.getCompressor(codec);
        BytesInputDecompressor decompressor = codecs.getDecompressor(codec);
        assertThat(compressor.getCodecName()).isEqualTo(codec);

        byte[] random = AllTypes.randomBytes(70_000, 1);
        byte[] text = "weir base file page ".repeat(5000).getBytes(StandardCharsets.UTF_8);
        for (byte[] page : new byte[][] {random, text, new byte[0], new byte[] {42}}) {
            // a page gathered from parts, as parquet-java passes them
            BytesInput input =
                    BytesInput.concat(
                            BytesInput.from(page, 0, page.length / 2),
                            BytesInput.from(page, page.length / 2, page.length - page.length / 2));
            byte[] compressed = bytes(compressor.compress(input));
            if (compression != BaseFileCompression.UNCOMPRESSED && page == text) {
                assertThat(compressed.length).isLessThan(page.length / 10);
            }
            byte[] restored =
                    bytes(decompressor.decompress(BytesInput.from(compressed), page.length));
            assertThat(restored).isEqualTo(page);

            ByteBuffer out = ByteBuffer.allocate(page.length);
            decompressor.decompress(
                    ByteBuffer.wrap(compressed), compressed.length, out, page.length);
            assertThat(out.array()).isEqualTo(page);
        }
        codecs.release();
    }

    @ParameterizedTest
    @EnumSource(
            value = BaseFileCompression.class,
            names = {"SNAPPY", "ZSTD"})
    void wrongUncompressedSizeIsAnError(BaseFileCompression compression) throws IOException {
        CompressionCodecName codec = ParquetCodecs.codecName(compression);
        ParquetCodecs codecs = new ParquetCodecs();
        byte[] page = "some page bytes".repeat(10).getBytes(StandardCharsets.UTF_8);
        byte[] compressed = bytes(codecs.getCompressor(codec).compress(BytesInput.from(page)));

        assertThatThrownBy(
                        () ->
                                codecs.getDecompressor(codec)
                                        .decompress(BytesInput.from(compressed), page.length + 1))
                .isInstanceOf(Exception.class);
        codecs.release();
    }

    @org.junit.jupiter.api.Test
    void otherCodecsAreUnsupported() {
        assertThatThrownBy(() -> new ParquetCodecs().getDecompressor(CompressionCodecName.GZIP))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("GZIP");
    }

    private static byte[] bytes(BytesInput input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        input.writeAllTo(out);
        return out.toByteArray();
    }
}
