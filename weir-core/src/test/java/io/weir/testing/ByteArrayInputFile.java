package io.weir.testing;

import io.weir.io.InputFile;
import io.weir.io.SeekableInputStream;

/** A file held in memory, for tests that read many small files made of bytes (fuzzing, say). */
public final class ByteArrayInputFile implements InputFile {
    private final String path;
    private final byte[] bytes;

    public ByteArrayInputFile(String path, byte[] bytes) {
        this.path = path;
        this.bytes = bytes;
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public long length() {
        return bytes.length;
    }

    @Override
    public SeekableInputStream newStream() {
        return new SeekableInputStream() {
            private int pos;

            @Override
            public long getPos() {
                return pos;
            }

            @Override
            public void seek(long newPos) {
                pos = (int) Math.min(newPos, bytes.length);
            }

            @Override
            public int read() {
                return pos < bytes.length ? bytes[pos++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= bytes.length) {
                    return -1;
                }
                int n = Math.min(len, bytes.length - pos);
                System.arraycopy(bytes, pos, b, off, n);
                pos += n;
                return n;
            }
        };
    }
}
