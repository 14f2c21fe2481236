package io.weir.io;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * The file system a table lives on. Weir needs only: create a new file, read a file, list a
 * directory, delete, and {@link #writeIfAbsent} (the atomic "create only if absent" that commits
 * rely on). It never renames or appends to data files, so object stores can implement it.
 *
 * <p>Paths are strings: a local path, or a URI whose scheme the implementation understands. Get one
 * from {@link FileIOs}, which picks the implementation by the location's scheme.
 */
public interface FileIO {

    InputFile newInputFile(String path);

    /**
     * A file whose length is known (from a commit's file list): object stores then need no request
     * to learn it before reading.
     */
    default InputFile newInputFile(String path, long length) {
        return newInputFile(path);
    }

    /** A file to be created; creating it fails if it exists. Parent directories are implied. */
    OutputFile newOutputFile(String path);

    boolean exists(String path) throws IOException;

    /** Deletes a file; deleting a file that does not exist is not an error. */
    void delete(String path) throws IOException;

    /**
     * The files directly under {@code directory} (not recursive), or an empty list if it does not
     * exist.
     */
    List<FileStatus> list(String directory) throws IOException;

    /** Every file under {@code directory}, recursively (for cleaning orphans). */
    List<FileStatus> listRecursive(String directory) throws IOException;

    /**
     * Atomically creates {@code path} with {@code content} if no file exists there. Returns false,
     * and changes nothing, if the file exists. Concurrent callers, also in other processes, see
     * exactly one of them succeed, and a reader never sees a partial file.
     */
    boolean writeIfAbsent(String path, byte[] content) throws IOException;

    /**
     * Writes {@code content} to {@code path}, replacing any previous file atomically where the file
     * system allows (readers see the old or the new file). For hints only, never for data.
     */
    void overwrite(String path, byte[] content) throws IOException;

    /**
     * Deletes files; those that do not exist are skipped. Object stores delete in batches, so
     * removing many files costs few requests.
     */
    default void deleteFiles(Collection<String> paths) throws IOException {
        for (String path : paths) {
            delete(path);
        }
    }

    /**
     * Deletes {@code directory} and everything under it (a dropped table or database). Deleting a
     * directory that does not exist is not an error.
     */
    default void deleteRecursively(String directory) throws IOException {
        deleteFiles(listRecursive(directory).stream().map(FileStatus::path).toList());
    }

    /**
     * The directories directly under {@code directory}, as full paths without a trailing slash,
     * sorted; on an object store, the common prefixes. Empty if {@code directory} does not exist.
     */
    default List<String> listDirectories(String directory) throws IOException {
        String dir = directory.endsWith("/") ? directory : directory + "/";
        TreeSet<String> out = new TreeSet<>();
        for (FileStatus file : listRecursive(directory)) {
            String rest = file.path().substring(dir.length());
            int slash = rest.indexOf('/');
            if (slash > 0) {
                out.add(dir + rest.substring(0, slash));
            }
        }
        return List.copyOf(out);
    }

    /**
     * Renames a directory and everything under it, failing if {@code to} exists. Only file systems
     * with an atomic rename have it (a catalog's {@code ALTER TABLE ... RENAME}); object stores do
     * not, and tables never need it.
     *
     * @throws UnsupportedOperationException if the file system cannot rename atomically
     */
    default void renameDirectory(String from, String to) throws IOException {
        throw new UnsupportedOperationException(
                "Cannot rename "
                        + from
                        + " to "
                        + to
                        + ": this file system has no atomic rename (object stores do not)");
    }

    /** Reads a whole (small) file. */
    default byte[] readAllBytes(String path) throws IOException {
        return newInputFile(path).readAllBytes();
    }
}
