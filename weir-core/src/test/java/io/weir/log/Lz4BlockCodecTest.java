package io.weir.log;

import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.DataFormatException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The LZ4 block codec compresses natively at {@link BlockCodec#LZ4_ACCELERATION} with state reused
 * from block to block, and its blocks are plain LZ4 blocks: any LZ4 decompressor reads them, and it
 * reads blocks of any acceleration.
 */
class Lz4BlockCodecTest {
    private static final int OFFSET = 28;

    @Test
    void roundTripsBlocksOfEverySizeAndContent() throws DataFormatException {
        assumeTrue(nativeLz4(), "no native LZ4 here");
        Random random = new Random(7);
        try (Lz4BlockCodec codec = new Lz4BlockCodec()) {
            for (int size : new int[] {1, 15, 16, 4096, 70_000, 1 << 20}) {
                for (byte[] raw : new byte[][] {rowLike(random, size), noise(random, size)}) {
                    byte[] compressed = compress(codec, raw);
                    assertThat(codec.acceleration()).isEqualTo(BlockCodec.LZ4_ACCELERATION);

                    byte[] back = new byte[raw.length + 2 * OFFSET];
                    codec.decompress(
                            compressed,
                            OFFSET,
                            compressed.length - OFFSET,
                            back,
                            OFFSET,
                            raw.length);
                    assertThat(Arrays.copyOfRange(back, OFFSET, OFFSET + raw.length))
                            .isEqualTo(raw);
                    // A plain LZ4 block: lz4-java's own decompressor reads it too.
                    assertThat(
                                    LZ4Factory.safeInstance()
                                            .safeDecompressor()
                                            .decompress(
                                                    Arrays.copyOfRange(
                                                            compressed, OFFSET, compressed.length),
                                                    raw.length))
                            .isEqualTo(raw);
                }
            }
        }
    }

    @Test
    void compressesRowsAndReadsBlocksOfTheDefaultAcceleration() throws DataFormatException {
        byte[] raw = rowLike(new Random(11), 1 << 20);
        try (Lz4BlockCodec codec = new Lz4BlockCodec()) {
            assertThat(compress(codec, raw).length - OFFSET).isLessThan(raw.length * 9 / 10);

            byte[] plain = new byte[OFFSET + codec.maxCompressedLength(raw.length)];
            int n =
                    LZ4Factory.safeInstance()
                            .fastCompressor()
                            .compress(raw, 0, raw.length, plain, OFFSET, plain.length - OFFSET);
            byte[] back = new byte[raw.length];
            codec.decompress(plain, OFFSET, n, back, 0, raw.length);
            assertThat(back).isEqualTo(raw);
        }
    }

    @Test
    void aClosedCodecHoldsNoNativeStateAndStillCompresses() throws DataFormatException {
        byte[] raw = rowLike(new Random(3), 10_000);
        Lz4BlockCodec codec = new Lz4BlockCodec();
        compress(codec, raw);
        assertThat(codec.acceleration()).isEqualTo(nativeLz4() ? BlockCodec.LZ4_ACCELERATION : 1);
        codec.close();
        assertThat(codec.acceleration()).isEqualTo(1);

        byte[] compressed = compress(codec, raw);
        assertThat(codec.acceleration()).isEqualTo(1);
        byte[] back = new byte[raw.length];
        codec.decompress(compressed, OFFSET, compressed.length - OFFSET, back, 0, raw.length);
        assertThat(back).isEqualTo(raw);
        codec.close();
    }

    @Test
    void rejectsMalformedAndMisSizedBlocks() {
        byte[] raw = rowLike(new Random(5), 5000);
        try (Lz4BlockCodec codec = new Lz4BlockCodec()) {
            byte[] compressed = compress(codec, raw);
            int length = compressed.length - OFFSET;
            byte[] back = new byte[raw.length + 1];
            assertThatThrownBy(
                            () ->
                                    codec.decompress(
                                            compressed, OFFSET, length, back, 0, raw.length + 1))
                    .isInstanceOf(DataFormatException.class)
                    .hasMessageContaining("LZ4");
            byte[] truncated = Arrays.copyOf(compressed, compressed.length - 7);
            assertThatThrownBy(
                            () ->
                                    codec.decompress(
                                            truncated, OFFSET, length - 7, back, 0, raw.length))
                    .isInstanceOf(DataFormatException.class)
                    .hasMessageContaining("LZ4");
        }
    }

    @Test
    void fallsBackToTheFastCompressorWhereFlinksOlderLz4JavaComesFirst() throws Exception {
        Path flinkLz4 = Path.of("target/flink-lz4/lz4-java.jar");
        Path classes =
                Path.of(
                        Lz4BlockCodec.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI());
        URL[] path = {classes.toUri().toURL(), flinkLz4.toUri().toURL()};
        try (URLClassLoader loader =
                new URLClassLoader(path, ClassLoader.getPlatformClassLoader())) {
            Class<?> type = loader.loadClass(Lz4BlockCodec.class.getName());
            assertThat(
                            loader.loadClass(LZ4Factory.class.getName())
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .getPath())
                    .endsWith("flink-lz4/lz4-java.jar");
            Constructor<?> create = type.getDeclaredConstructor();
            create.setAccessible(true);
            Object codec = create.newInstance();
            Method compress =
                    type.getDeclaredMethod(
                            "compress",
                            byte[].class,
                            int.class,
                            int.class,
                            byte[].class,
                            int.class,
                            int.class);
            Method acceleration = type.getDeclaredMethod("acceleration");
            compress.setAccessible(true);
            acceleration.setAccessible(true);

            byte[] raw = rowLike(new Random(13), 100_000);
            byte[] out = new byte[2 * raw.length];
            int n = (int) compress.invoke(codec, raw, 0, raw.length, out, 0, out.length);
            assertThat(acceleration.invoke(codec)).isEqualTo(1);
            assertThat(n).isLessThan(raw.length);
            assertThat(
                            LZ4Factory.safeInstance()
                                    .safeDecompressor()
                                    .decompress(Arrays.copyOf(out, n), raw.length))
                    .isEqualTo(raw);
        }
    }

    /** Whether this platform has the native compressor (the codec's fallback is tested below). */
    private static boolean nativeLz4() {
        Lz4BlockCodec.Accelerated probe = Lz4BlockCodec.acceleratedOrNull(1);
        if (probe == null) {
            return false;
        }
        probe.compressor.close();
        return true;
    }

    /** Compresses into a fresh array, after {@link #OFFSET} bytes of header room. */
    private static byte[] compress(Lz4BlockCodec codec, byte[] raw) {
        byte[] out = new byte[OFFSET + codec.maxCompressedLength(raw.length)];
        int n = codec.compress(raw, 0, raw.length, out, OFFSET, out.length - OFFSET);
        return Arrays.copyOf(out, OFFSET + n);
    }

    /** Rows like the benchmark's: small integers in 8-byte slots, then a random hex string. */
    private static byte[] rowLike(Random random, int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            int inRow = i % 176;
            if (inRow < 96) {
                b[i] = (inRow & 7) < 3 ? (byte) random.nextInt(256) : 0;
            } else {
                b[i] = (byte) "0123456789abcdef".charAt(random.nextInt(16));
            }
        }
        return b;
    }

    private static byte[] noise(Random random, int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }
}
