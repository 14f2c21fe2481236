package io.weir.hadoop;

import io.weir.io.InputFile;
import io.weir.io.SeekableInputStream;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;

/** A file on HDFS to read; the file system is resolved when it is first read. */
final class HadoopInputFile implements InputFile {
    private static final int READ_ATTEMPTS = 3;

    private final HadoopFileIO io;
    private final String path;
    private final Path file;

    HadoopInputFile(HadoopFileIO io, String path, Path file) {
        this.io = io;
        this.path = path;
        this.file = file;
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public long length() throws IOException {
        try {
            return io.fs(path, file).getFileStatus(file).getLen();
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "read", path);
        }
    }

    @Override
    public SeekableInputStream newStream() throws IOException {
        return new HadoopInputStream(open(), path);
    }

    /**
     * Asks the DataNodes to drop the bytes read from their page cache (a compaction reads its
     * inputs once); file systems that cannot are read as usual.
     */
    @Override
    public SeekableInputStream newUncachedStream() throws IOException {
        FSDataInputStream in = open();
        try {
            in.setDropBehind(true);
        } catch (UnsupportedOperationException | IOException e) {
            // not supported here (e.g. WebHDFS): an ordinary read
        }
        return new HadoopInputStream(in, path);
    }

    /**
     * Reads the whole file; if the file is replaced while it is read, reads the new one. {@link
     * io.weir.io.FileIO#overwrite} replaces a file by a rename, and unlike a local file, the
     * replaced file's blocks go away at once: a reader that opened it before fails with "Blocklist
     * has changed" or a missing block. Whole small files (hints, markers, leases) are read here;
     * reading again gives the old file's successor, which is what the contract allows ("the old or
     * the new file"). Data files are never replaced, so streams need no such care.
     */
    @Override
    public byte[] readAllBytes() throws IOException {
        for (int attempt = 1; ; attempt++) {
            FSDataInputStream in = open();
            try (in) {
                return in.readAllBytes();
            } catch (FileNotFoundException e) {
                throw HadoopErrors.translate(e, "read", path);
            } catch (IOException e) {
                if (attempt >= READ_ATTEMPTS) {
                    throw HadoopErrors.translate(e, "read", path);
                }
            }
        }
    }

    private FSDataInputStream open() throws IOException {
        try {
            return io.fs(path, file).open(file);
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "read", path);
        }
    }
}
