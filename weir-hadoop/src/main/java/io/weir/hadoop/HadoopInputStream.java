package io.weir.hadoop;

import io.weir.io.SeekableInputStream;

import org.apache.hadoop.fs.FSDataInputStream;

import java.io.IOException;

/** A {@link SeekableInputStream} over Hadoop's {@link FSDataInputStream}. */
final class HadoopInputStream extends SeekableInputStream {
    private final FSDataInputStream in;
    private final String path;

    HadoopInputStream(FSDataInputStream in, String path) {
        this.in = in;
        this.path = path;
    }

    @Override
    public long getPos() throws IOException {
        return in.getPos();
    }

    @Override
    public void seek(long newPos) throws IOException {
        try {
            in.seek(newPos);
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "read", path);
        }
    }

    @Override
    public int read() throws IOException {
        try {
            return in.read();
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "read", path);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        try {
            return in.read(b, off, len);
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "read", path);
        }
    }

    /** Fails with {@link java.io.EOFException} if the file ends first, as the contract says. */
    @Override
    public void readFully(byte[] b, int off, int len) throws IOException {
        try {
            in.readFully(b, off, len);
        } catch (java.io.EOFException e) {
            throw e;
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "read", path);
        }
    }

    @Override
    public long skip(long n) throws IOException {
        return in.skip(n);
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
