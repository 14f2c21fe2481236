package io.weir.io;

import io.weir.exceptions.ValidationException;
import io.weir.options.StorageOptions;

import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place that picks a {@link FileIO}: by the scheme of a location. Plain paths and {@code
 * file:} URIs are local; other schemes go to the {@link FileIOProvider} on the classpath that
 * serves them. One instance is made per scheme's provider and set of storage options and shared, so
 * that a JVM holds one client (and one connection pool) per object store, however many tables and
 * operators use it.
 */
public final class FileIOs {
    /** The scheme of local paths (and of locations without a scheme). */
    public static final String LOCAL_SCHEME = "file";

    // A scheme is at least two characters, so that a Windows drive letter is not one.
    private static final Pattern SCHEME = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]+):");

    private static final Map<String, FileIOProvider> PROVIDERS = loadProviders();
    private static final Map<Key, FileIO> INSTANCES = new ConcurrentHashMap<>();

    private FileIOs() {}

    private record Key(FileIOProvider provider, StorageOptions options) {}

    /** The file system of a location on the default storage options (the environment's). */
    public static FileIO forLocation(String location) {
        return forLocation(location, StorageOptions.none());
    }

    /**
     * The file system of a location.
     *
     * @throws ValidationException if no provider on the classpath serves the location's scheme, or
     *     the options do not fit it
     */
    public static FileIO forLocation(String location, StorageOptions options) {
        FileIOProvider provider = provider(location);
        return INSTANCES.computeIfAbsent(
                new Key(provider, options),
                key -> {
                    try {
                        return key.provider().create(key.options());
                    } catch (IllegalArgumentException e) {
                        throw new ValidationException(
                                "Cannot access " + location + ": " + e.getMessage(), e);
                    }
                });
    }

    /** The location's scheme in lower case; {@value #LOCAL_SCHEME} for a plain path. */
    public static String scheme(String location) {
        Matcher m = SCHEME.matcher(location);
        return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : LOCAL_SCHEME;
    }

    /** Whether the location is on the local file system. */
    public static boolean isLocal(String location) {
        return LOCAL_SCHEME.equals(scheme(location));
    }

    private static FileIOProvider provider(String location) {
        String scheme = scheme(location);
        FileIOProvider provider = PROVIDERS.get(scheme);
        if (provider == null) {
            throw new ValidationException(
                    "No file system for location '"
                            + location
                            + "': its scheme '"
                            + scheme
                            + "' is not among those on the classpath ("
                            + String.join(", ", PROVIDERS.keySet())
                            + "). s3 and s3a come with weir-aws, hdfs with weir-hadoop; the"
                            + " connector jar holds both.");
        }
        return provider;
    }

    private static Map<String, FileIOProvider> loadProviders() {
        Map<String, FileIOProvider> providers = new TreeMap<>();
        ClassLoader loader = FileIOs.class.getClassLoader();
        for (FileIOProvider provider : ServiceLoader.load(FileIOProvider.class, loader)) {
            for (String scheme : provider.schemes()) {
                FileIOProvider previous = providers.putIfAbsent(scheme, provider);
                if (previous != null && previous.getClass() != provider.getClass()) {
                    throw new IllegalStateException(
                            "Two file systems serve the scheme '"
                                    + scheme
                                    + "': "
                                    + previous.getClass().getName()
                                    + " and "
                                    + provider.getClass().getName());
                }
            }
        }
        return Map.copyOf(providers);
    }
}
