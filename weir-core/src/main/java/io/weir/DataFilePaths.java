package io.weir;

import java.util.UUID;

/**
 * The names of a table's data files (docs/format.md §1): the one place that makes them. A file
 * group's files live in {@code <partition path>/bucket-<n>/}; a log file is named {@code
 * log-<uuid>.wlog}, a base file {@code base-<uuid>.parquet}. Paths in metadata are relative to the
 * table location.
 */
public final class DataFilePaths {
    private DataFilePaths() {}

    /** The directory of a file group, relative to the table location, with a trailing slash. */
    public static String groupDirectory(Schema schema, Partition partition, int bucket) {
        String dir = schema.isPartitioned() ? partition.path(schema.partitionKeys()) + "/" : "";
        return dir + "bucket-" + bucket + "/";
    }

    /** A new log file's path in a file group's {@link #groupDirectory directory}. */
    public static String newLogFile(String groupDirectory) {
        return groupDirectory + "log-" + UUID.randomUUID() + ".wlog";
    }

    /** A new base file's path in a file group's {@link #groupDirectory directory}. */
    public static String newBaseFile(String groupDirectory) {
        return groupDirectory + "base-" + UUID.randomUUID() + ".parquet";
    }

    /** The location of a file from its path relative to the table location. */
    public static String resolve(String tableLocation, String relativePath) {
        return tableLocation.endsWith("/")
                ? tableLocation + relativePath
                : tableLocation + "/" + relativePath;
    }
}
