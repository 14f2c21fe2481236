package io.weir.io;

import java.io.IOException;
import java.io.OutputStream;

/** An output stream that knows how many bytes it has written. */
public abstract class PositionOutputStream extends OutputStream {
    public abstract long getPos() throws IOException;

    /**
     * Gives up the file after a failure: where the file system can (an object store's upload), what
     * was written never becomes visible; elsewhere the stream is closed and the caller deletes the
     * partial file. Never throws.
     */
    public void abort() {
        try {
            close();
        } catch (IOException | RuntimeException e) {
            // The file is abandoned either way.
        }
    }
}
