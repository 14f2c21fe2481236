package io.weir.io;

import java.io.IOException;
import java.io.InputStream;

/** An input stream that can jump to a position. */
public abstract class SeekableInputStream extends InputStream {
    public abstract long getPos() throws IOException;

    public abstract void seek(long newPos) throws IOException;

    /** Reads exactly {@code len} bytes or fails with {@link java.io.EOFException}. */
    public void readFully(byte[] b, int off, int len) throws IOException {
        int n = 0;
        while (n < len) {
            int r = read(b, off + n, len - n);
            if (r < 0) {
                throw new java.io.EOFException(
                        "Reached the end of the stream with " + (len - n) + " bytes left to read");
            }
            n += r;
        }
    }
}
