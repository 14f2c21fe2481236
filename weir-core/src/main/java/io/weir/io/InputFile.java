package io.weir.io;

import java.io.IOException;

/** A file to read. */
public interface InputFile {
    String path();

    /** The length in bytes; fails with {@link java.io.FileNotFoundException} if missing. */
    long length() throws IOException;

    SeekableInputStream newStream() throws IOException;

    /**
     * A stream for reading the file once, as a compaction reads its inputs: where the file system
     * can, it reads around the page cache (direct I/O), which such a read would only fill with data
     * nobody reads again. Otherwise the same as {@link #newStream()}.
     */
    default SeekableInputStream newUncachedStream() throws IOException {
        return newStream();
    }

    default byte[] readAllBytes() throws IOException {
        try (SeekableInputStream in = newStream()) {
            return in.readAllBytes();
        }
    }
}
