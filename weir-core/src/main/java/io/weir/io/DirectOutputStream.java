package io.weir.io;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes a new local file with direct I/O ({@code O_DIRECT}): whole aligned chunks go from an
 * aligned native buffer to the device, without being copied into the page cache and written back
 * later. Data files are written once and read by other jobs, often much later, so caching them
 * while writing buys little and costs a copy of every byte plus the kernel's page cache work (on
 * the benchmark machine 1–2 s of system CPU per GB, against 0.15 s direct; docs/performance.md,
 * "Seventh round"). {@link DirectInputStream} reads such files back once, for a compaction.
 *
 * <p>A direct write returns when the device has the bytes, so the stream writes behind: a full
 * buffer goes to a background thread while the caller fills a second one, and the caller waits only
 * when it fills that before the device is done. Written in the caller's thread, each flush of the
 * benchmark's writers left the machine waiting on the device (I/O wait 13-18 % of both cores for
 * about a second; 1-4 % writing behind): docs/performance.md, "Seventeenth round".
 *
 * <p>The file's last, unaligned bytes are written through a second, ordinary channel at the aligned
 * position, so the file ends exactly where its content does. {@link #close()} forces the file to
 * the device, as {@code LocalFileIO}'s buffered stream does.
 */
final class DirectOutputStream extends PositionOutputStream {
    static final int BUFFER_SIZE = AlignedBuffers.SIZE;

    /** The smallest alignment used: the page size, a multiple of common devices' logical blocks. */
    private static final int MIN_ALIGNMENT = 4096;

    /**
     * The threads of the writes behind: daemons, as many as streams write at once, idle ones end.
     */
    private static final ExecutorService WRITES_BEHIND =
            new ThreadPoolExecutor(
                    0,
                    Integer.MAX_VALUE,
                    10,
                    TimeUnit.SECONDS,
                    new SynchronousQueue<>(),
                    new WriterThreads());

    /** {@link #alignment(Path)} by device number: as many entries as file systems written to. */
    private static final ConcurrentHashMap<Object, Integer> ALIGNMENTS = new ConcurrentHashMap<>();

    private final Path path;
    private final FileChannel plain;
    private final FileChannel direct;
    private final int alignment;

    /** The buffer being filled. */
    private ByteBuffer buffer;

    /** The buffer being written behind, or the spare one when {@link #inFlight} is null. */
    private ByteBuffer other;

    /** Whether no second buffer could be had: then the caller's thread writes. */
    private boolean noSpare;

    /** The write of {@link #other}, or null. */
    private Future<?> inFlight;

    private long pos;

    /** Bytes in the file before the buffer's first byte. */
    private long written;

    /**
     * Whether a direct write failed (on a device whose blocks are larger than the file system
     * reports, say); from there on the stream writes through the plain channel. Set by the thread
     * of a write behind, read after waiting for it.
     */
    private volatile boolean directFailed;

    private DirectOutputStream(
            Path path, FileChannel plain, FileChannel direct, int alignment, ByteBuffer buffer) {
        this.path = path;
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
            alignment = alignment(path);
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
        return alignment < 0 ? null : openOrNull(path, plain, alignment);
    }

    /**
     * The alignment of direct I/O for an existing file: {@link #alignment(FileStore)} of its file
     * system, found once per file system (device). Finding a file's store reads and parses the
     * whole mount table, a cost that dominated the creation of small files when a writer creates
     * one per file group at every checkpoint; a device number is one {@code stat}.
     */
    static int alignment(Path path) throws IOException {
        Object device;
        try {
            device = Files.getAttribute(path, "unix:dev");
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return alignment(Files.getFileStore(path)); // no device numbers here: look every time
        }
        Integer known = ALIGNMENTS.get(device);
        if (known == null) {
            known = alignment(Files.getFileStore(path));
            ALIGNMENTS.putIfAbsent(device, known);
        }
        return known;
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
        ByteBuffer buffer = AlignedBuffers.takeOrNull(alignment);
        if (buffer == null) {
            // Every native buffer in use, or the JVM's limit on them reached: the page cache then
            // takes the file, as it would without direct I/O.
            closeQuietly(direct);
            return null;
        }
        return new DirectOutputStream(path, plain, direct, alignment, buffer);
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

    /**
     * Writes the aligned part of what is buffered, and waits for it; the rest waits for more bytes
     * or close.
     */
    @Override
    public void flush() throws IOException {
        checkOpen();
        writeAligned();
        awaitWriteBehind();
    }

    @Override
    public void close() throws IOException {
        if (buffer == null) {
            return;
        }
        try {
            writeAligned();
            awaitWriteBehind();
            buffer.flip();
            writeOut(buffer, written, false);
            plain.force(false);
        } finally {
            ByteBuffer released = buffer;
            buffer = null;
            try {
                // A failed close may leave a write behind: the buffers go back only after it.
                awaitQuietly();
                direct.close();
            } finally {
                plain.close();
                AlignedBuffers.give(released);
                if (other != null) {
                    AlignedBuffers.give(other);
                    other = null;
                }
            }
        }
    }

    /**
     * Hands the buffer's whole aligned chunks to a write behind, after the previous one is done;
     * the unaligned rest moves to the front of the other buffer, which is filled next.
     */
    private void writeAligned() throws IOException {
        int end = buffer.position();
        int aligned = end & -alignment;
        if (aligned == 0) {
            return;
        }
        awaitWriteBehind();
        if (other == null && (noSpare || (other = AlignedBuffers.takeOrNull(alignment)) == null)) {
            noSpare = true;
            buffer.flip().limit(aligned);
            written += writeOut(buffer, written, true);
            buffer.limit(end).compact();
            return;
        }
        ByteBuffer chunk = buffer;
        buffer = other.clear().put(0, chunk, aligned, end - aligned).position(end - aligned);
        other = chunk.flip().limit(aligned);
        long at = written;
        written += aligned;
        inFlight = WRITES_BEHIND.submit(() -> writeOut(chunk, at, true));
    }

    /** Waits for the write behind, if any; rethrows its failure. */
    private void awaitWriteBehind() throws IOException {
        if (inFlight == null) {
            return;
        }
        Future<?> write = inFlight;
        inFlight = null;
        try {
            write.get();
        } catch (InterruptedException e) {
            inFlight = write;
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while writing " + path);
        } catch (ExecutionException e) {
            throw new IOException("Cannot write " + path, e.getCause());
        }
    }

    /** Waits for the write behind, if any, ignoring its failure and interrupts. */
    private void awaitQuietly() {
        Future<?> write = inFlight;
        inFlight = null;
        if (write == null) {
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                write.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException e) {
                break; // the file is garbage; its owner deletes it
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Writes {@code chunk}'s remaining bytes at {@code at}, directly if asked and possible; returns
     * their number.
     */
    private int writeOut(ByteBuffer chunk, long at, boolean directly) throws IOException {
        int n = chunk.remaining();
        long to = at;
        while (chunk.hasRemaining()) {
            if (directly && !directFailed) {
                try {
                    to += direct.write(chunk, to);
                    continue;
                } catch (IOException e) {
                    directFailed = true;
                }
            }
            to += plain.write(chunk, to);
        }
        return n;
    }

    private void checkOpen() throws IOException {
        if (buffer == null) {
            throw new IOException("Stream closed");
        }
    }

    /** Daemon threads without the creator's class loader, so that none outlives a job's loader. */
    private static final class WriterThreads implements ThreadFactory {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "weir-write-behind-" + count.incrementAndGet());
            t.setDaemon(true);
            t.setContextClassLoader(null);
            return t;
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
