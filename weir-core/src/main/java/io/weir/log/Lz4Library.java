package io.weir.log;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Enumeration;

/**
 * The lz4-java that {@link Lz4BlockCodec} compresses and decompresses with, whatever else is on the
 * classpath.
 *
 * <p>Weir needs the native compressor of lz4-java's maintained fork ({@code at.yawk.lz4}, 1.11 and
 * later) that takes LZ4's acceleration and reuses its state. Flink ships {@code org.lz4:lz4-java}
 * 1.8 (in flink-dist, and as a Maven dependency of flink-runtime) with the same class names ({@code
 * net.jpountz.*}) and without that compressor; whichever jar comes first on a class path serves
 * every class it has. Relocating the fork's classes does not work: JNI binds a native method to its
 * class's name, so a relocated copy cannot use the fork's native library. So Weir loads the fork,
 * from the jar it is in (the fork's own jar, or the connector jar), in a class loader of its own
 * whose parent is the platform class loader: under their own names, with its own copy of the native
 * library (the fork extracts it to a temporary file of its own for each class loader), and never
 * shadowed by another jar. Its classes are not visible to Weir's code at compile time in that
 * loader, so the codec calls them through method handles: one call per block of up to 1 MB.
 *
 * <p>Where the fork cannot be found or loaded that way (it is not on the classpath, or its jar is
 * not something a {@link URLClassLoader} opens), the lz4-java classes Weir's own class loader sees
 * serve: the fork's accelerated compressor if those are the fork's, else {@code
 * LZ4Factory.fastestInstance()}'s compressor at LZ4's default acceleration (the same block format,
 * about half the speed on the benchmark's rows). A warning says so, once per class loader.
 */
final class Lz4Library {
    private static final Logger LOG = LoggerFactory.getLogger(Lz4Library.class);

    /** A class only the fork has: where it is, the fork is. */
    static final String FORK_MARKER = "net/jpountz/lz4/LZ4JNIFastResetCompressor.class";

    private static final String FACTORY = "net.jpountz.lz4.LZ4Factory";
    private static final MethodType COMPRESS =
            MethodType.methodType(
                    int.class,
                    byte[].class,
                    int.class,
                    int.class,
                    byte[].class,
                    int.class,
                    int.class);

    /** The library Weir's codec uses in this class loader. */
    static final Lz4Library CURRENT =
            load(Lz4Library.class.getClassLoader(), BlockCodec.LZ4_ACCELERATION);

    private final String description;
    private final boolean fast;
    private final int acceleration;

    /** {@code ()Object}: a new compressor, with state of its own when {@link #fast}. */
    private final MethodHandle newCompressor;

    /** {@code (Object, byte[], int, int, byte[], int, int)int}: LZ4Compressor.compress. */
    private final MethodHandle compress;

    /** {@code (byte[], int, int, byte[], int, int)int}: a stateless safe decompressor's. */
    private final MethodHandle decompress;

    /** {@code (int)int}: LZ4Compressor.maxCompressedLength of a stateless compressor. */
    private final MethodHandle maxCompressedLength;

    /** A stateless compressor at LZ4's default acceleration, shared by all threads. */
    private final Object stateless;

    private final Class<?> lz4Exception;

    private Lz4Library(
            String description,
            boolean fast,
            int acceleration,
            MethodHandle newCompressor,
            MethodHandle compress,
            MethodHandle decompress,
            MethodHandle maxCompressedLength,
            Object stateless,
            Class<?> lz4Exception) {
        this.description = description;
        this.fast = fast;
        this.acceleration = acceleration;
        this.newCompressor = newCompressor;
        this.compress = compress;
        this.decompress = decompress;
        this.maxCompressedLength = maxCompressedLength;
        this.stateless = stateless;
        this.lz4Exception = lz4Exception;
    }

    /**
     * The fork isolated from {@code loader}'s other jars, or else the lz4-java {@code loader} sees
     * (with a warning).
     */
    static Lz4Library load(ClassLoader loader, int acceleration) {
        String isolationFailure;
        try {
            URL root = forkRoot(loader);
            if (root == null) {
                isolationFailure = "lz4-java's fork (at.yawk.lz4) is not on the classpath";
            } else {
                // Never closed once used: the library lives as long as the class loader of Weir.
                URLClassLoader isolated =
                        new URLClassLoader(
                                "weir-lz4", new URL[] {root}, ClassLoader.getPlatformClassLoader());
                try {
                    return of(isolated, true, acceleration, "lz4-java fork from " + root);
                } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                    isolated.close();
                    throw e;
                }
            }
        } catch (ReflectiveOperationException
                | java.io.IOException
                | LinkageError
                | RuntimeException e) {
            isolationFailure = "loading lz4-java's fork in a class loader of its own failed: " + e;
        }
        Lz4Library visible;
        try {
            visible = of(loader, true, acceleration, "lz4-java on Weir's classpath");
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            try {
                visible = of(loader, false, 1, "lz4-java on Weir's classpath");
            } catch (ReflectiveOperationException f) {
                throw new IllegalStateException("lz4-java is not usable on Weir's classpath", f);
            }
        }
        if (!visible.fast) {
            LOG.warn(
                    "Weir compresses LZ4 log blocks at about half its speed: {}, and the lz4-java"
                            + " first on the classpath ({}) has no accelerated native compressor"
                            + " (docs/packaging.md)",
                    isolationFailure,
                    visible.description);
        } else {
            LOG.warn(
                    "Weir uses the lz4-java first on the classpath ({}): {}; another lz4-java"
                            + " ahead of it would halve LZ4's speed (docs/packaging.md)",
                    visible.description,
                    isolationFailure);
        }
        return visible;
    }

    /** The class path root (jar or folder) of the fork that {@code loader} sees, or null. */
    static URL forkRoot(ClassLoader loader) throws java.io.IOException {
        Enumeration<URL> found = loader.getResources(FORK_MARKER);
        while (found.hasMoreElements()) {
            String url = found.nextElement().toString();
            // jar:file:/x.jar!/net/... -> jar:file:/x.jar!/ ; file:/classes/net/... ->
            // file:/classes/
            if (url.endsWith(FORK_MARKER)
                    && (url.startsWith("jar:file:") || url.startsWith("file:"))) {
                return new URL(url.substring(0, url.length() - FORK_MARKER.length()));
            }
        }
        return null;
    }

    /**
     * The library of {@code loader}'s lz4-java: with {@code fast}, the native fast-reset compressor
     * (which fails where it does not exist), else {@code fastestInstance()}'s compressor.
     */
    private static Lz4Library of(ClassLoader loader, boolean fast, int acceleration, String where)
            throws ReflectiveOperationException {
        Class<?> factoryType = Class.forName(FACTORY, true, loader);
        Class<?> compressorType = Class.forName("net.jpountz.lz4.LZ4Compressor", true, loader);
        Class<?> decompressorType =
                Class.forName("net.jpountz.lz4.LZ4SafeDecompressor", true, loader);
        Object factory =
                factoryType.getMethod(fast ? "nativeInstance" : "fastestInstance").invoke(null);
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodHandle newCompressor;
        if (fast) {
            Class<?> fastReset =
                    Class.forName("net.jpountz.lz4.LZ4JNIFastResetCompressor", true, loader);
            newCompressor =
                    lookup.findVirtual(
                                    factoryType,
                                    "fastResetCompressor",
                                    MethodType.methodType(fastReset, int.class))
                            .bindTo(factory);
            newCompressor = MethodHandles.insertArguments(newCompressor, 0, acceleration);
            // Create and free one now, so that a missing native method fails here, not in a flush.
            try {
                ((AutoCloseable) newCompressor.invoke()).close();
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        } else {
            Object shared = factoryType.getMethod("fastCompressor").invoke(factory);
            newCompressor = MethodHandles.constant(Object.class, shared);
        }
        MethodHandle compress =
                lookup.findVirtual(compressorType, "compress", COMPRESS)
                        .asType(COMPRESS.insertParameterTypes(0, Object.class));
        Object stateless = factoryType.getMethod("fastCompressor").invoke(factory);
        MethodHandle maxCompressedLength =
                lookup.findVirtual(
                                compressorType,
                                "maxCompressedLength",
                                MethodType.methodType(int.class, int.class))
                        .bindTo(stateless);
        Object decompressor = factoryType.getMethod("safeDecompressor").invoke(factory);
        MethodHandle decompress =
                lookup.findVirtual(decompressorType, "decompress", COMPRESS).bindTo(decompressor);
        String description =
                where
                        + " ("
                        + factory
                        + (fast ? ", fast-reset compressor at acceleration " + acceleration : "")
                        + ")";
        return new Lz4Library(
                description,
                fast,
                fast ? acceleration : 1,
                newCompressor.asType(MethodType.methodType(Object.class)),
                compress,
                decompress,
                maxCompressedLength,
                stateless,
                Class.forName("net.jpountz.lz4.LZ4Exception", false, loader));
    }

    /** Whether blocks compress natively at {@link #acceleration()} with state reused. */
    boolean fast() {
        return fast;
    }

    /** The acceleration blocks are compressed at (LZ4's default, 1, where not {@link #fast}). */
    int acceleration() {
        return acceleration;
    }

    /** Which lz4-java, from where, with which compressor (for logs and tests). */
    String description() {
        return description;
    }

    /** The shared stateless compressor (LZ4's default acceleration), which needs no release. */
    Object statelessCompressor() {
        return stateless;
    }

    /**
     * A new compressor for one codec: with native state that {@link #release} frees where {@link
     * #fast}, else shared and stateless.
     */
    Object newCompressor() {
        try {
            return newCompressor.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    void release(Object compressor) {
        if (fast && compressor instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("Cannot free LZ4's native state", e);
            }
        }
    }

    int compress(
            Object compressor,
            byte[] src,
            int srcOff,
            int srcLen,
            byte[] dst,
            int dstOff,
            int dstCapacity) {
        try {
            return (int)
                    compress.invokeExact(compressor, src, srcOff, srcLen, dst, dstOff, dstCapacity);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    int maxCompressedLength(int rawLength) {
        try {
            return (int) maxCompressedLength.invokeExact(rawLength);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Decompresses with the safe decompressor (the fast one trusts its input, CVE-2025-12183, and a
     * log file is input) and returns the decompressed length.
     *
     * @throws IllegalArgumentException for malformed input, with lz4-java's message
     */
    int decompress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int maxLength) {
        try {
            return (int) decompress.invokeExact(src, srcOff, srcLen, dst, dstOff, maxLength);
        } catch (RuntimeException e) {
            if (lz4Exception.isInstance(e)) {
                throw new MalformedLz4Exception(e.getMessage());
            }
            throw e;
        } catch (Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** lz4-java's LZ4Exception, whichever class loader's it was. */
    static final class MalformedLz4Exception extends RuntimeException {
        MalformedLz4Exception(String message) {
            super(message);
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
