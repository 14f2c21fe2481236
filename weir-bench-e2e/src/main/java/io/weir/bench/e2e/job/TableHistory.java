package io.weir.bench.e2e.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A table's history through the sink's own API, as a {@link CompactionHistory} (docs/benchmark.md,
 * "The figures"): {@link WeirHistory}, {@link PaimonHistory}, {@link HudiHistory}.
 *
 * <p>A Weir table that expires snapshots in the job ({@code snapshot.expire.in-job}, which the long
 * variant needs) is followed while the ingestion runs, a poll every second, each reading only the
 * commits made since the last, under a reader lease that keeps expiry from removing a commit not
 * read yet ({@link WeirHistory}). Every other table is read after the ingestion, outside its
 * figures: Weir's and Paimon's snapshots stay for an hour by default, and the benchmark keeps
 * Hudi's instants from archiving.
 */
final class TableHistory implements AutoCloseable {
    static final long POLL_SECONDS = 1;

    /** Weir's table option that makes the job expire snapshots as it commits. */
    private static final String EXPIRE_IN_JOB = "snapshot.expire.in-job";

    private final SinkTable table;
    private final WeirHistory weir;
    private final ScheduledExecutorService poller;
    private volatile RuntimeException pollFailure;

    private TableHistory(SinkTable table) {
        this.table = table;
        boolean weirTable = table.kind().system() == SinkKind.WEIR;
        this.weir = weirTable ? new WeirHistory(table.tableDir()) : null;
        if (weirTable && Boolean.parseBoolean(table.options().get(EXPIRE_IN_JOB))) {
            weir.holdUnread();
            this.poller =
                    Executors.newSingleThreadScheduledExecutor(
                            r -> {
                                Thread t = new Thread(r, "weir-bench-history");
                                t.setDaemon(true);
                                return t;
                            });
            poller.scheduleWithFixedDelay(this::poll, 0, POLL_SECONDS, TimeUnit.SECONDS);
        } else {
            this.poller = null;
        }
    }

    /** Starts following the history of a table that exists, before its ingestion starts. */
    static TableHistory follow(SinkTable table) {
        return new TableHistory(table);
    }

    private void poll() {
        try {
            weir.poll();
            weir.holdUnread();
        } catch (RuntimeException e) {
            // A later poll could only skip the commits this one missed: stop, and fail finish().
            pollFailure = e;
            throw e;
        }
    }

    /**
     * The whole history, after the ingestion: the last commits of a followed table, or every
     * retained commit or snapshot of the others; null for a sink without one (or a Hudi table whose
     * is gone).
     */
    CompactionHistory finish() throws InterruptedException {
        if (weir == null) {
            Path dir = table.tableDir();
            return switch (table.kind().system()) {
                case PAIMON -> PaimonHistory.read(dir);
                case HUDI -> HudiHistory.read(dir);
                default -> null;
            };
        }
        if (poller != null) {
            poller.shutdown();
            if (!poller.awaitTermination(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException(
                        "The history poll of " + table.tableDir() + " hangs");
            }
        }
        if (pollFailure != null) {
            throw new IllegalStateException(
                    "Reading the history of " + table.tableDir() + " while it was written failed",
                    pollFailure);
        }
        weir.poll();
        if (poller != null) {
            weir.release();
        }
        return weir.history();
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.shutdownNow();
        }
    }

    /** Regular files under {@code dir}, data and metadata (0 if it does not exist). */
    static long filesUnder(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
