package io.weir.io;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes a new local file with direct I/O ({@code O_DIRECT}): whole aligned chunks go from an
 * aligned native buffer to the device, without being copied into the page cache and written back
 * later. Data files are written once and read by other jobs, often much later, so caching them
 * while writing buys little and costs a copy of every byte plus the kernel's page cache work (on
 * the benchmark machine 1–2 s of system CPU per GB, against 0.15 s direct; docs/performance.md,
 * "Seventh round"). {@link DirectInputStream} reads such files back once, for a compaction.
 *
 * <p>The file's last, unaligned bytes are written through a second, ordinary channel at the aligned
 * position, so the file ends exactly where its content does. {@link #close()} forces the file to
 * the device, as {@code LocalFileIO}'s buffered stream does.
 */
final class DirectOutputStream extends PositionOutputStream {
    static final int BUFFER_SIZE = AlignedBuffers.SIZE;

    /** The smallest alignment used: the page size, a multiple of common devices' logical blocks. */
    private static final int MIN_ALIGNMENT = 4096;

    private final FileChannel plain;
    private final FileChannel direct;
    private final int alignment;
    private ByteBuffer buffer;
    private long pos;

    /** Bytes in the file before the buffer's first byte. */
    private long written;

    /**
     * Whether a direct write failed (on a device whose blocks are larger than the file system
     * reports, say); from there on the stream writes through the plain channel.
     */
    private boolean directFailed;

    private DirectOutputStream(
            FileChannel plain, FileChannel direct, int alignment, ByteBuffer buffer) {
        this.plain = plain;
        this.direct = direct;
        this.alignment = alignment;
        this.buffer = buffer;
    }

    /**
     * A direct stream for {@code path}, just created and opened as {@code plain}, or null when its
     * file system does not take direct I/O (tmpfs on older kernels, some network file systems) or
     * no native buffer can be had: the caller then writes through {@code plain}.
     */
    static PositionOutputStream openOrNull(Path path, FileChannel plain) {
        int alignment;
        try {
            alignment = alignment(Files.getFileStore(path));
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
        return alignment < 0 ? null : openOrNull(path, plain, alignment);
    }

    /**
     * The alignment of direct I/O on {@code store}: its block size, at least the page size; -1 if
     * that is no power of two or larger than a buffer.
     */
    static int alignment(FileStore store) throws IOException {
        long alignment = Math.max(MIN_ALIGNMENT, store.getBlockSize());
        return Long.bitCount(alignment) == 1 && alignment <= BUFFER_SIZE ? (int) alignment : -1;
    }

    /** As {@link #openOrNull(Path, FileChannel)}, with writes aligned to {@code alignment}. */
    static PositionOutputStream openOrNull(Path path, FileChannel plain, int alignment) {
        FileChannel direct;
        try {
            direct = FileChannel.open(path, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
        ByteBuffer buffer;
        try {
            buffer = AlignedBuffers.take(alignment);
        } catch (OutOfMemoryError e) {
            // The JVM's limit on native buffers (a Flink task manager sets it tight): the page
            // cache then takes the file, as it would without direct I/O.
            closeQuietly(direct);
            return null;
        }
        return new DirectOutputStream(plain, direct, alignment, buffer);
    }

    /** Whether a direct write failed and the stream went on through the plain channel. */
    boolean directFailed() {
        return directFailed;
    }

    @Override
    public long getPos() {
        return pos;
    }

    @Override
    public void write(int b) throws IOException {
        checkOpen();
        buffer.put((byte) b);
        pos++;
        if (!buffer.hasRemaining()) {
            writeAligned();
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        checkOpen();
        while (len > 0) {
            int n = Math.min(len, buffer.remaining());
            buffer.put(b, off, n);
            off += n;
            len -= n;
            pos += n;
            if (!buffer.hasRemaining()) {
                writeAligned();
            }
        }
    }

    /** Writes the aligned part of what is buffered; the rest waits for more bytes or close. */
    @Override
    public void flush() throws IOException {
        checkOpen();
        writeAligned();
    }

    @Override
    public void close() throws IOException {
        if (buffer == null) {
            return;
        }
        try {
            writeAligned();
            buffer.flip();
            writeOut(false);
            plain.force(false);
        } finally {
            ByteBuffer released = buffer;
            buffer = null;
            try {
                direct.close();
            } finally {
                plain.close();
                AlignedBuffers.give(released);
            }
        }
    }

    /** Writes the buffer's whole aligned chunks and moves the remainder to its front. */
    private void writeAligned() throws IOException {
        int aligned = buffer.position() & -alignment;
        if (aligned == 0) {
            return;
        }
        buffer.flip();
        int end = buffer.limit();
        buffer.limit(aligned);
        writeOut(true);
        buffer.limit(end);
        buffer.compact();
    }

    /** Writes the buffer's remaining bytes at {@link #written}, directly if asked and possible. */
    private void writeOut(boolean directly) throws IOException {
        while (buffer.hasRemaining()) {
            if (directly && !directFailed) {
                try {
                    written += direct.write(buffer);
                    continue;
                } catch (IOException e) {
                    directFailed = true;
                }
            }
            written += plain.write(buffer, written);
        }
    }

    private void checkOpen() throws IOException {
        if (buffer == null) {
            throw new IOException("Stream closed");
        }
    }

    static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing was written or read through it.
        }
    }
}
