package io.weir.flink;

import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.options.StorageOptions;

import org.apache.flink.util.function.SerializableSupplier;

import java.util.Map;
import java.util.TreeMap;

/**
 * How a task on any TaskManager reaches a table's file system: the location (whose scheme picks the
 * file system) and the storage options, resolved by {@link FileIOs} where the task runs, so each
 * JVM shares one client per object store. Its {@link #toString} masks secrets.
 */
public final class FileIOLoader implements SerializableSupplier<FileIO> {
    private static final long serialVersionUID = 1L;

    private final String location;
    private final TreeMap<String, String> options;

    private FileIOLoader(String location, Map<String, String> options) {
        this.location = location;
        this.options = new TreeMap<>(options);
    }

    /** The file system of {@code location}, reached with {@code options}. */
    public static FileIOLoader of(String location, StorageOptions options) {
        return new FileIOLoader(location, options.toMap());
    }

    /** The file system of {@code location} with the default (environment's) storage options. */
    public static FileIOLoader of(String location) {
        return of(location, StorageOptions.none());
    }

    @Override
    public FileIO get() {
        return FileIOs.forLocation(location, storageOptions());
    }

    public StorageOptions storageOptions() {
        return StorageOptions.of(options);
    }

    @Override
    public String toString() {
        return "FileIOLoader(" + location + ", " + storageOptions() + ")";
    }
}
