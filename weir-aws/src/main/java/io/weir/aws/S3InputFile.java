package io.weir.aws;

import io.weir.io.InputFile;
import io.weir.io.SeekableInputStream;

import java.io.IOException;

/** An S3 object to read. Its length is asked for (HEAD) only when needed, and then remembered. */
final class S3InputFile implements InputFile {
    private final S3FileIO io;
    private final String path;
    private final S3Location location;
    private volatile long length;

    /**
     * @param length the object's length if known (from table metadata), or -1
     */
    S3InputFile(S3FileIO io, String path, S3Location location, long length) {
        this.io = io;
        this.path = path;
        this.location = location;
        this.length = length;
    }

    @Override
    public String path() {
        return path;
    }

    /**
     * @throws java.io.FileNotFoundException if the object does not exist
     */
    @Override
    public long length() throws IOException {
        long known = length;
        if (known < 0) {
            known = io.headLength(location, path);
            length = known;
        }
        return known;
    }

    /** Opens lazily: the first read sends the first ranged GET; a missing object fails there. */
    @Override
    public SeekableInputStream newStream() {
        return new S3InputStream(io.client(), io.errors(), location, path, length, io.readAhead());
    }

    /** One GET of the whole object. */
    @Override
    public byte[] readAllBytes() throws IOException {
        return io.readAllBytes(path);
    }
}
