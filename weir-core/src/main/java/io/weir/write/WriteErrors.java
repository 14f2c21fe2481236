package io.weir.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;

/**
 * The error of a failed write of a table's file: one line that names the file, the table and the
 * cause, e.g. "Cannot write file /t/bucket-0/log-1.wlog of table /t: No space left on device". The
 * file system's exception stays its cause; callers delete what they wrote first.
 */
final class WriteErrors {
    private WriteErrors() {}

    static UncheckedIOException cannotWrite(
            String what, String path, String table, Exception failure) {
        IOException cause =
                failure instanceof UncheckedIOException u ? u.getCause() : (IOException) failure;
        return new UncheckedIOException(
                "Cannot write " + what + " " + path + " of table " + table + ": " + reason(cause),
                cause);
    }

    /**
     * The root cause in a few words (the file system's "No space left on device", say): the
     * exceptions around it repeat the path, as does a {@link FileSystemException}'s message.
     */
    private static String reason(IOException e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }
}
