package io.weir.io;

import java.io.IOException;

/** A file to read. */
public interface InputFile {
    String path();

    /** The length in bytes; fails with {@link java.io.FileNotFoundException} if missing. */
    long length() throws IOException;

    SeekableInputStream newStream() throws IOException;

    default byte[] readAllBytes() throws IOException {
        try (SeekableInputStream in = newStream()) {
            return in.readAllBytes();
        }
    }
}
