package io.weir.io;

import java.io.IOException;

/** A file to create. */
public interface OutputFile {
    String path();

    /**
     * Creates the file; fails with {@link java.nio.file.FileAlreadyExistsException} if it exists.
     */
    PositionOutputStream create() throws IOException;
}
