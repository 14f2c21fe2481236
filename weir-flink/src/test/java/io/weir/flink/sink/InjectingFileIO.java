package io.weir.flink.sink;

import io.weir.flink.sink.FailureHook.InjectedFailure;
import io.weir.flink.sink.FailureHook.Point;
import io.weir.io.InputFile;
import io.weir.io.OutputFile;
import io.weir.testing.ForwardingFileIO;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A {@link LocalFileIO} that fails with an I/O error at the storage points of a {@link
 * FailureHook.Plan}: a writer creating a log file ({@link Point#FLUSH}), a commit file write that
 * never happens ({@link Point#COMMIT_LOST}) or that happens but reports an error ({@link
 * Point#COMMIT_AMBIGUOUS}), in-job compaction writing a base file or its commit, and a source
 * reader opening a data file. It is what a sink or source gets as its {@code fileIO} supplier, so
 * production code has no seam at these points at all: the failure is the one storage would raise.
 * Compaction runs on threads named {@code weir-compaction-N} and {@code weir-rewrite-N}; that is
 * how a commit file write of a compaction round is told from one of the committer.
 */
final class InjectingFileIO extends ForwardingFileIO {
    private final String planId;

    InjectingFileIO(String planId) {
        this.planId = planId;
    }

    private static boolean inCompaction() {
        String thread = Thread.currentThread().getName();
        return thread.startsWith("weir-compaction") || thread.startsWith("weir-rewrite");
    }

    private static boolean isCommit(String path) {
        return path.contains("/_weir/commits/") && !path.endsWith(".tmp");
    }

    private static boolean isData(String path) {
        return path.endsWith(".wlog") || path.endsWith(".parquet");
    }

    private void hit(Point point, String path) throws IOException {
        try {
            FailureHook.plan(planId).hit(point, path.substring(path.lastIndexOf('/') + 1));
        } catch (InjectedFailure e) {
            throw new IOException(e.getMessage() + ": " + path, e);
        }
    }

    private void hitUnchecked(Point point, String path) {
        try {
            hit(point, path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public InputFile newInputFile(String path) {
        if (isData(path)) {
            hitUnchecked(Point.SOURCE_READ, path);
        }
        return delegate().newInputFile(path);
    }

    @Override
    public InputFile newInputFile(String path, long length) {
        if (isData(path)) {
            hitUnchecked(Point.SOURCE_READ, path);
        }
        return delegate().newInputFile(path, length);
    }

    @Override
    public OutputFile newOutputFile(String path) {
        if (path.endsWith(".wlog") && !inCompaction()) {
            hitUnchecked(Point.FLUSH, path);
        } else if (path.endsWith(".parquet") && inCompaction()) {
            hitUnchecked(Point.COMPACTION, path);
        }
        return delegate().newOutputFile(path);
    }

    @Override
    public boolean writeIfAbsent(String path, byte[] content) throws IOException {
        if (!isCommit(path)) {
            return delegate().writeIfAbsent(path, content);
        }
        if (inCompaction()) {
            boolean written = delegate().writeIfAbsent(path, content);
            hit(Point.COMPACTION_COMMIT, path);
            return written;
        }
        hit(Point.COMMIT_LOST, path);
        boolean written = delegate().writeIfAbsent(path, content);
        hit(Point.COMMIT_AMBIGUOUS, path);
        return written;
    }

    @Override
    public void renameDirectory(String from, String to) throws IOException {
        delegate().renameDirectory(from, to);
    }
}
