package io.weir.io;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads a local file with direct I/O ({@code O_DIRECT}), for files read once ({@link
 * InputFile#newUncachedStream()}): aligned chunks of up to 1 MB go from the device into an aligned
 * native buffer, without passing through the page cache, and reads are served from that buffer.
 * Data files are written with direct I/O ({@link DirectOutputStream}), so a compaction finds its
 * inputs on the device; read through the page cache, each of their pages would be allocated,
 * filled, copied once and evicted again. On the benchmark machine, reading 800 MB that way cost
 * 0.05 to 1.3 s of system CPU (the more, the more of the page cache had to be found first),
 * directly 0.05 s (docs/performance.md, "Tenth round").
 *
 * <p>At most {@link #MAX_OPEN} streams are open at once (a merge over more log files reads the
 * others through the page cache): each holds a 1 MB native buffer of {@link AlignedBuffers}, and a
 * Flink task manager's native memory is budgeted. A failed direct read (a device whose blocks are
 * larger than the file system reports, say) sends this and every later read through the plain
 * channel.
 */
final class DirectInputStream extends SeekableInputStream {
    static final int MAX_OPEN = 32;

    private static final AtomicInteger OPEN = new AtomicInteger();

    private final FileChannel plain;
    private final FileChannel direct;
    private final int alignment;
    private final byte[] one = new byte[1];
    private ByteBuffer buffer;

    /** The file position of the buffer's first byte; its valid bytes end at its limit. */
    private long bufferStart;

    private long pos;
    private boolean directFailed;

    private DirectInputStream(
            FileChannel plain, FileChannel direct, int alignment, ByteBuffer buffer) {
        this.plain = plain;
        this.direct = direct;
        this.alignment = alignment;
        this.buffer = buffer.limit(0);
    }

    /**
     * A direct stream over {@code path}, opened as {@code plain}, or null when its file system does
     * not take direct I/O or no native buffer can be had: the caller then reads through {@code
     * plain}.
     */
    static SeekableInputStream openOrNull(Path path, FileChannel plain) {
        int alignment;
        try {
            alignment = DirectOutputStream.alignment(path);
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
        return alignment < 0 ? null : openOrNull(path, plain, alignment);
    }

    /** As {@link #openOrNull(Path, FileChannel)}, with reads aligned to {@code alignment}. */
    static SeekableInputStream openOrNull(Path path, FileChannel plain, int alignment) {
        if (OPEN.incrementAndGet() > MAX_OPEN) {
            OPEN.decrementAndGet();
            return null;
        }
        FileChannel direct;
        try {
            direct = FileChannel.open(path, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
        } catch (IOException | UnsupportedOperationException e) {
            OPEN.decrementAndGet();
            return null; // no direct I/O here: the page cache serves the file
        }
        ByteBuffer buffer = AlignedBuffers.takeOrNull(alignment);
        if (buffer == null) {
            // Every native buffer in use, or the JVM's limit on them reached.
            DirectOutputStream.closeQuietly(direct);
            OPEN.decrementAndGet();
            return null;
        }
        return new DirectInputStream(plain, direct, alignment, buffer);
    }

    /** The number of direct read streams open now. */
    static int openCount() {
        return OPEN.get();
    }

    /** Whether a direct read failed and the stream went on through the plain channel. */
    boolean directFailed() {
        return directFailed;
    }

    @Override
    public long getPos() {
        return pos;
    }

    @Override
    public void seek(long newPos) throws IOException {
        checkOpen();
        if (newPos < 0) {
            throw new IOException("Cannot seek to negative position " + newPos);
        }
        pos = newPos;
    }

    @Override
    public int read() throws IOException {
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        checkOpen();
        if (len == 0) {
            return 0;
        }
        long at = pos - bufferStart;
        if (at < 0 || at >= buffer.limit()) {
            fill();
            at = pos - bufferStart;
            if (at >= buffer.limit()) {
                return -1;
            }
        }
        int n = (int) Math.min(len, buffer.limit() - at);
        buffer.get((int) at, b, off, n);
        pos += n;
        return n;
    }

    /**
     * Fills the buffer with one read from the aligned position at or before {@link #pos}. A short
     * read (the end of the file) leaves fewer bytes, and none of {@link #pos}'s if that is past the
     * end; whatever it left out, the next fill reads.
     */
    private void fill() throws IOException {
        bufferStart = pos & -(long) alignment;
        buffer.clear();
        if (!directFailed) {
            try {
                direct.read(buffer, bufferStart);
            } catch (IOException e) {
                directFailed = true;
            }
        }
        if (directFailed) {
            plain.read(buffer, bufferStart);
        }
        buffer.flip();
    }

    @Override
    public long skip(long n) throws IOException {
        checkOpen();
        long target = Math.min(plain.size(), pos + Math.max(0, n));
        long skipped = Math.max(0, target - pos);
        pos += skipped;
        return skipped;
    }

    @Override
    public int available() throws IOException {
        checkOpen();
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, plain.size() - pos));
    }

    @Override
    public void close() throws IOException {
        if (buffer == null) {
            return;
        }
        ByteBuffer released = buffer;
        buffer = null;
        OPEN.decrementAndGet();
        try {
            direct.close();
        } finally {
            plain.close();
            AlignedBuffers.give(released);
        }
    }

    private void checkOpen() throws IOException {
        if (buffer == null) {
            throw new IOException("Stream closed");
        }
    }
}
