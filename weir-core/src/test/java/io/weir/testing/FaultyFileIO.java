package io.weir.testing;

import io.weir.io.FileIO;
import io.weir.io.FileStatus;
import io.weir.io.InputFile;
import io.weir.io.LocalFileIO;
import io.weir.io.OutputFile;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A {@link FileIO} ({@link LocalFileIO} unless another is given) that simulates a process dying in
 * the middle of a table service: the k-th delete, or the k-th write (create-if-absent or overwrite)
 * of a path the test selects, throws, and so does every call after it until {@link #heal()}.
 */
public final class FaultyFileIO implements FileIO {
    /** Thrown where the simulated process died. */
    public static final class Crash extends RuntimeException {
        Crash(String what) {
            super("injected crash at " + what);
        }
    }

    private final FileIO delegate;
    private final AtomicInteger deletes = new AtomicInteger();
    private final AtomicInteger writes = new AtomicInteger();
    private volatile int failDelete = -1;
    private volatile int failWrite = -1;
    private volatile Predicate<String> writeFilter = p -> true;
    private volatile boolean dead;
    private volatile Consumer<String> beforeWrite = p -> {};

    public FaultyFileIO() {
        this(new LocalFileIO());
    }

    /** Injects faults into the calls to {@code delegate} (e.g. the S3 of {@link TestStorage}). */
    public FaultyFileIO(FileIO delegate) {
        this.delegate = delegate;
    }

    /** The k-th delete from now (1-based) throws, and so does everything after it. */
    public FaultyFileIO failOnDelete(int k) {
        deletes.set(0);
        failDelete = k;
        return this;
    }

    /** The k-th metadata write from now to a path the filter accepts throws, and all after. */
    public FaultyFileIO failOnWrite(int k, Predicate<String> paths) {
        writes.set(0);
        writeFilter = paths;
        failWrite = k;
        return this;
    }

    /** Runs before every create-if-absent and overwrite, with the path: to interleave a race. */
    public FaultyFileIO beforeWrite(Consumer<String> hook) {
        beforeWrite = hook;
        return this;
    }

    /** Back to normal operation (a new process). */
    public FaultyFileIO heal() {
        failDelete = -1;
        failWrite = -1;
        dead = false;
        return this;
    }

    public int deletes() {
        return deletes.get();
    }

    private void checkAlive(String what) {
        if (dead) {
            throw new Crash(what + " (after the crash)");
        }
    }

    @Override
    public InputFile newInputFile(String path) {
        checkAlive("read " + path);
        return delegate.newInputFile(path);
    }

    @Override
    public OutputFile newOutputFile(String path) {
        checkAlive("create " + path);
        return delegate.newOutputFile(path);
    }

    @Override
    public boolean exists(String path) throws IOException {
        checkAlive("exists " + path);
        return delegate.exists(path);
    }

    @Override
    public void delete(String path) throws IOException {
        checkAlive("delete " + path);
        if (deletes.incrementAndGet() == failDelete) {
            dead = true;
            throw new Crash("delete " + path);
        }
        delegate.delete(path);
    }

    @Override
    public List<FileStatus> list(String directory) throws IOException {
        checkAlive("list " + directory);
        return delegate.list(directory);
    }

    @Override
    public List<FileStatus> listRecursive(String directory) throws IOException {
        checkAlive("list " + directory);
        return delegate.listRecursive(directory);
    }

    @Override
    public boolean writeIfAbsent(String path, byte[] content) throws IOException {
        checkAlive("write " + path);
        failWrite(path);
        return delegate.writeIfAbsent(path, content);
    }

    @Override
    public void overwrite(String path, byte[] content) throws IOException {
        checkAlive("overwrite " + path);
        failWrite(path);
        delegate.overwrite(path, content);
    }

    @Override
    public byte[] readAllBytes(String path) throws IOException {
        checkAlive("read " + path);
        return delegate.readAllBytes(path);
    }

    private void failWrite(String path) {
        beforeWrite.accept(path);
        if (writeFilter.test(path) && writes.incrementAndGet() == failWrite) {
            dead = true;
            throw new Crash("write " + path);
        }
    }
}
