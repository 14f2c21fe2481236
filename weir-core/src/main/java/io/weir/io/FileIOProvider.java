package io.weir.io;

import io.weir.options.StorageOptions;

import java.util.Set;

/**
 * Makes the {@link FileIO} for locations of some URI schemes. Providers are found with {@link
 * java.util.ServiceLoader} (a {@code META-INF/services/io.weir.io.FileIOProvider} entry), so a file
 * system joins by being on the classpath: {@code weir-aws} for {@code s3:}, {@code weir-hadoop} for
 * {@code hdfs:}. Only {@link FileIOs} calls them.
 */
public interface FileIOProvider {

    /** The URI schemes served, in lower case, e.g. {@code s3} and {@code s3a}. */
    Set<String> schemes();

    /**
     * A file system for the given options. Called once per distinct set of options; the result is
     * shared by every table on it, so it must be safe for concurrent use.
     *
     * @throws IllegalArgumentException if the options do not fit this file system
     */
    FileIO create(StorageOptions options);
}
