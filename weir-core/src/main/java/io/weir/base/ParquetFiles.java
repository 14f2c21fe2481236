package io.weir.base;

import io.weir.io.InputFile;
import io.weir.io.OutputFile;

import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.SeekableInputStream;

import java.io.IOException;
import java.io.InputStream;

/**
 * Adapters from Weir's {@link OutputFile}/{@link InputFile} to parquet-java's, so base files go
 * through {@code FileIO} (local, HDFS, object stores) and never through Hadoop file systems.
 *
 * <p>An I/O failure of the underlying Weir stream is rethrown as a {@link SourceIOException}, so a
 * reader can tell a failing file system (worth retrying) from bytes that parquet-java cannot decode
 * (a corrupt file).
 */
final class ParquetFiles {
    private ParquetFiles() {}

    /** A parquet output file that creates {@code file} (never overwrites). */
    static Output output(OutputFile file) {
        return new Output(file);
    }

    /** A parquet input file over {@code file}, whose length is already known. */
    static org.apache.parquet.io.InputFile input(InputFile file, long length) {
        return new InputAdapter(file, length);
    }

    /** The failure of the underlying stream in {@code t}'s cause chain, or null. */
    static SourceIOException sourceFailure(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SourceIOException s) {
                return s;
            }
        }
        return null;
    }

    /** An IOException thrown by the Weir stream itself; its cause is the original. */
    static final class SourceIOException extends IOException {
        SourceIOException(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /**
     * A parquet output file that creates a Weir file; it remembers the stream, for the final size
     * and for closing it when a write is abandoned.
     */
    static final class Output implements org.apache.parquet.io.OutputFile {
        private final OutputFile file;
        private io.weir.io.PositionOutputStream stream;
        private long size = -1;

        Output(OutputFile file) {
            this.file = file;
        }

        /** Creates the file, before parquet-java asks for it, so that a failure shows early. */
        void open() throws IOException {
            stream = file.create();
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) throws IOException {
            if (stream == null) {
                open();
            }
            return new OutputStreamAdapter();
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) {
            throw new UnsupportedOperationException(
                    "Cannot overwrite " + file.path() + ": base files are immutable");
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }

        @Override
        public String getPath() {
            return file.path();
        }

        /** The size of the file once parquet-java closed it, else -1. */
        long size() {
            return size;
        }

        /** Aborts the stream, ignoring failures: the file is abandoned and will be deleted. */
        void abort() {
            if (stream != null) {
                stream.abort();
            }
        }

        private final class OutputStreamAdapter extends PositionOutputStream {
            @Override
            public long getPos() throws IOException {
                return stream.getPos();
            }

            @Override
            public void write(int b) throws IOException {
                stream.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                stream.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                stream.flush();
            }

            @Override
            public void close() throws IOException {
                size = stream.getPos();
                stream.close();
            }
        }
    }

    private static final class InputAdapter implements org.apache.parquet.io.InputFile {
        private final InputFile file;
        private final long length;

        InputAdapter(InputFile file, long length) {
            this.file = file;
            this.length = length;
        }

        @Override
        public long getLength() {
            return length;
        }

        @Override
        public SeekableInputStream newStream() throws IOException {
            try {
                return new InputStreamAdapter(new MarkingStream(file.newStream()));
            } catch (IOException e) {
                throw new SourceIOException(e);
            }
        }

        @Override
        public String toString() {
            return file.path();
        }
    }

    private static final class InputStreamAdapter extends DelegatingSeekableInputStream {
        private final MarkingStream in;

        InputStreamAdapter(MarkingStream in) {
            super(in);
            this.in = in;
        }

        @Override
        public long getPos() throws IOException {
            return in.getPos();
        }

        @Override
        public void seek(long newPos) throws IOException {
            in.seek(newPos);
        }
    }

    /** Forwards to a Weir stream, marking its IOExceptions as {@link SourceIOException}s. */
    private static final class MarkingStream extends InputStream {
        private final io.weir.io.SeekableInputStream in;

        MarkingStream(io.weir.io.SeekableInputStream in) {
            this.in = in;
        }

        long getPos() throws IOException {
            try {
                return in.getPos();
            } catch (IOException e) {
                throw new SourceIOException(e);
            }
        }

        void seek(long newPos) throws IOException {
            try {
                in.seek(newPos);
            } catch (IOException e) {
                throw new SourceIOException(e);
            }
        }

        @Override
        public int read() throws IOException {
            try {
                return in.read();
            } catch (IOException e) {
                throw new SourceIOException(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return in.read(b, off, len);
            } catch (IOException e) {
                throw new SourceIOException(e);
            }
        }

        @Override
        public long skip(long n) throws IOException {
            try {
                return in.skip(n);
            } catch (IOException e) {
                throw new SourceIOException(e);
            }
        }

        @Override
        public int available() throws IOException {
            try {
                return in.available();
            } catch (IOException e) {
                throw new SourceIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
