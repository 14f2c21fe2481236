package io.weir.io;

import java.io.IOException;
import java.util.List;

/**
 * The file system a table lives on. Weir needs only: create a new file, read a file, list a
 * directory, delete, and {@link #writeIfAbsent} (the atomic "create only if absent" that commits
 * rely on). It never renames or appends to data files, so object stores can implement it.
 *
 * <p>Paths are strings: a local path, or a URI whose scheme the implementation understands.
 */
public interface FileIO {

    InputFile newInputFile(String path);

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

    /** Reads a whole (small) file. */
    default byte[] readAllBytes(String path) throws IOException {
        return newInputFile(path).readAllBytes();
    }
}
