package io.weir.log;

import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4JNIFastResetCompressor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
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
    void compressesNativelyAtItsAccelerationWhereFlinksOlderLz4JavaComesFirst() throws Exception {
        // As in an application built with Maven whose Flink dependencies come first: Flink's
        // org.lz4:lz4-java 1.8.0 ahead of Weir and of the fork.
        try (URLClassLoader loader =
                loader(FLINK_LZ4, weirClasses(), jarOf(Logger.class), fork())) {
            assertThat(jarOf(loader.loadClass(LZ4Factory.class.getName())).toString())
                    .endsWith("flink-lz4/lz4-java.jar");
            assertThat(jarOf(loader.loadClass(Lz4BlockCodec.class.getName())))
                    .isEqualTo(weirClasses());

            Object library = currentLibrary(loader);
            assertThat(call(library, "fast")).isEqualTo(true);
            assertThat(Files.exists(log) ? Files.readString(log) : "").doesNotContain("WARN");
            assertThat(call(library, "description").toString()).contains(fork().toString());
            assertCompressesReadableBlocks(loader, BlockCodec.LZ4_ACCELERATION);
        }
    }

    @Test
    void fallsBackToTheFastCompressorWhereOnlyFlinksOlderLz4JavaIsThere() throws Exception {
        try (URLClassLoader loader =
                loader(weirClasses(), jarOf(Logger.class), simpleLogger(), FLINK_LZ4)) {
            Object library = currentLibrary(loader);
            assertThat(Files.readString(log))
                    .containsOnlyOnce("WARN")
                    .contains("about half its speed")
                    .contains("lz4-java's fork (at.yawk.lz4) is not on the classpath");
            assertThat(call(library, "fast")).isEqualTo(false);
            assertThat(call(library, "description").toString())
                    .contains("lz4-java on Weir's classpath");
            assertCompressesReadableBlocks(loader, 1);
        }
    }

    @Test
    void findsTheForkInItsJarOrFolder() throws Exception {
        assertThat(Lz4Library.forkRoot(getClass().getClassLoader()))
                .isEqualTo(new URL("jar:" + fork().toUri() + "!/"));
        try (URLClassLoader none = loader(weirClasses(), FLINK_LZ4)) {
            assertThat(Lz4Library.forkRoot(none)).isNull();
        }
        assertThat(Lz4Library.CURRENT.fast()).isEqualTo(nativeLz4());
    }

    @TempDir Path tmp;

    /** What the warnings of lz4 libraries loaded by a test go to (slf4j-simple of its loader). */
    private Path log;

    @BeforeEach
    void logToAFile() {
        log = tmp.resolve("lz4.log");
        System.setProperty("org.slf4j.simpleLogger.logFile", log.toString());
    }

    @AfterEach
    void logAsBefore() {
        System.clearProperty("org.slf4j.simpleLogger.logFile");
    }

    private static Path simpleLogger() throws Exception {
        return jarOf(Class.forName("org.slf4j.impl.SimpleLogger"));
    }

    private static final Path FLINK_LZ4 = Path.of("target/flink-lz4/lz4-java.jar");

    private static URLClassLoader loader(Path... entries) throws Exception {
        URL[] urls = new URL[entries.length];
        for (int i = 0; i < entries.length; i++) {
            urls[i] = entries[i].toUri().toURL();
        }
        return new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
    }

    private static Path jarOf(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static Path weirClasses() throws Exception {
        return jarOf(Lz4BlockCodec.class);
    }

    private static Path fork() throws Exception {
        return jarOf(LZ4Factory.class);
    }

    private static Object currentLibrary(ClassLoader loader) throws Exception {
        Field current = loader.loadClass(Lz4Library.class.getName()).getDeclaredField("CURRENT");
        current.setAccessible(true);
        return current.get(null);
    }

    private static Object call(Object target, String method) throws Exception {
        Method m = target.getClass().getDeclaredMethod(method);
        m.setAccessible(true);
        return m.invoke(target);
    }

    /**
     * A codec of {@code loader}'s compresses at {@code acceleration}; the fork reads its blocks.
     */
    private static void assertCompressesReadableBlocks(ClassLoader loader, int acceleration)
            throws Exception {
        Class<?> type = loader.loadClass(Lz4BlockCodec.class.getName());
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
        compress.setAccessible(true);
        byte[] raw = rowLike(new Random(13), 100_000);
        byte[] out = new byte[2 * raw.length];
        int n = (int) compress.invoke(codec, raw, 0, raw.length, out, 0, out.length);
        assertThat(call(codec, "acceleration")).isEqualTo(acceleration);
        assertThat(n).isLessThan(raw.length);
        assertThat(
                        LZ4Factory.safeInstance()
                                .safeDecompressor()
                                .decompress(Arrays.copyOf(out, n), raw.length))
                .isEqualTo(raw);
        if (acceleration > 1) {
            // Byte for byte what the fork's native compressor makes at that acceleration.
            byte[] expected = new byte[2 * raw.length];
            int m;
            try (LZ4JNIFastResetCompressor reference =
                    LZ4Factory.nativeInstance().fastResetCompressor(acceleration)) {
                m = reference.compress(raw, 0, raw.length, expected, 0, expected.length);
            }
            assertThat(Arrays.copyOf(out, n)).isEqualTo(Arrays.copyOf(expected, m));
        }
        call(codec, "close");
    }

    /** Whether this platform has the fork's native compressor. */
    private static boolean nativeLz4() {
        try {
            LZ4Factory.nativeInstance().fastResetCompressor(1).close();
            return true;
        } catch (LinkageError | RuntimeException e) {
            return false;
        }
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
