package io.weir.log;

import io.weir.exceptions.CorruptFileException;
import io.weir.io.SeekableInputStream;
import io.weir.util.LittleEndian;

import java.io.EOFException;
import java.io.IOException;
import java.util.zip.CRC32C;

/** A log file being read: positioned reads, CRC checks and corruption errors naming the file. */
final class LogInput {
    private final String path;
    private final SeekableInputStream in;
    private final CRC32C crc = new CRC32C();

    LogInput(String path, SeekableInputStream in) {
        this.path = path;
        this.in = in;
    }

    String path() {
        return path;
    }

    /** Reads {@code len} bytes at {@code position}; the caller has checked they are in the file. */
    void readFully(long position, byte[] b, int off, int len) throws IOException {
        try {
            if (in.getPos() != position) {
                in.seek(position);
            }
            in.readFully(b, off, len);
        } catch (EOFException e) {
            throw corrupt(position, "unexpected end of file (did the file change while read?)");
        }
    }

    /**
     * Checks the CRC-32C stored at {@code crcAt} in {@code b} against the bytes before it, which
     * were read from {@code offset}.
     */
    void checkCrc(long offset, byte[] b, int crcAt, String what) {
        crc.reset();
        crc.update(b, 0, crcAt);
        int computed = (int) crc.getValue();
        int stored = LittleEndian.getInt(b, crcAt);
        if (computed != stored) {
            throw corrupt(
                    offset,
                    String.format(
                            "%s CRC-32C mismatch: stored %08x, computed %08x over bytes [%d, %d)",
                            what, stored, computed, offset, offset + crcAt));
        }
    }

    CorruptFileException corrupt(long offset, String problem) {
        return new CorruptFileException(path, offset, problem);
    }

    void close() throws IOException {
        in.close();
    }
}
