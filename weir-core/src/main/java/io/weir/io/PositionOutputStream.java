package io.weir.io;

import java.io.IOException;
import java.io.OutputStream;

/** An output stream that knows how many bytes it has written. */
public abstract class PositionOutputStream extends OutputStream {
    public abstract long getPos() throws IOException;
}
