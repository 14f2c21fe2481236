package io.weir.flink.compaction;

import io.weir.CompactionResult;
import io.weir.ExpirePartitionsResult;
import io.weir.ExpireSnapshotsResult;
import io.weir.Table;
import io.weir.exceptions.FileGroupCompactionException;
import io.weir.options.PartitionOptions;
import io.weir.options.TableOptions;
import io.weir.util.DaemonThreads;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Compaction (and partition expiry, and optionally snapshot expiry) of a table, run in the
 * background of an ingestion job. {@link #onCommitted()} is called after each ingest commit, on the
 * job's task thread, and never blocks: it starts a round on the maintenance thread unless one is
 * running or the last failure's back-off has not passed. So checkpoints never wait for compaction,
 * and at most one round is in flight; its size is bounded by {@code compaction.round.*}.
 *
 * <p>While a round rewrites, a second lane on its own thread merges the newest runs that ingest
 * commits add meanwhile, planned around the round's files ({@link io.weir.Compaction#around},
 * {@link io.weir.Compaction#newestRunsOnly}): a round that rewrites a large base takes long, and
 * without this the groups would reach {@code compaction.stall-runs} and hold the writers until it
 * commits. The lane never merges a base nor a file of the round, runs on one thread, at most one
 * merge at a time ({@link NewerRunsLane}); its commits and the round's remove disjoint files, so
 * both land.
 *
 * <p>A round compacts the file groups that are due ({@code compaction.max-log-files}, {@code
 * compaction.max-log-bytes}), or every group with a log file when a full round is due ({@code
 * compaction.full.delta-commits}, {@code compaction.full.interval}), and commits once. Compaction
 * commits never conflict with ingest commits: they remove only the files they read, and logs
 * committed meanwhile stay. A failed round is logged and retried by a later round, after a back-off
 * that doubles up to 5 minutes; the job goes on. A round that failed rewriting a file group is
 * logged as an error naming the group and the cause (it will fail again until fixed), any other
 * failure as a warning until {@link #ERROR_AFTER_FAILURES} rounds in a row failed; {@link
 * MaintenanceStats} counts failed rounds and consecutive failures (metrics). That is safe because a
 * round's inputs stay live until its commit replaces them: a round that fails, or is abandoned,
 * changes no snapshot, and its files are deleted (or, if the process dies, left as orphans for
 * orphan removal).
 */
public final class TableMaintainer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TableMaintainer.class);
    private static final long FIRST_BACKOFF_MILLIS = 1_000;
    private static final long MAX_BACKOFF_MILLIS = 300_000;

    /** Failed rounds in a row from which a failure that names no file group is logged as error. */
    static final int ERROR_AFTER_FAILURES = 3;

    private final Supplier<Table> loader;
    private final CompactionHook hook;
    private final MaintenanceStats stats = new MaintenanceStats();
    private final ExecutorService thread =
            Executors.newSingleThreadExecutor(DaemonThreads.named("weir-compaction"));
    private final AtomicInteger commitsSeen = new AtomicInteger();
    private final AtomicBoolean committedDuringRound = new AtomicBoolean();
    private final FilesInFlight filesInFlight = new FilesInFlight();
    private final NewerRunsLane newerRuns;

    // Task thread only.
    private Future<?> inFlight;

    // Set by the task thread, read by the maintenance thread's chain of rounds.
    private volatile boolean ended;

    // Maintenance thread only.
    private Table table;
    private int commitsAtLastFull;
    private long lastFullMillis = System.currentTimeMillis();
    private boolean retryFull;
    private int failures;
    private long nextPartitionExpiryMillis;

    private volatile long notBeforeMillis;
    private volatile boolean closed;

    /**
     * @param loader loads the table (called on the maintenance thread)
     * @param hook a test seam, or null
     */
    public TableMaintainer(Supplier<Table> loader, CompactionHook hook) {
        this.loader = loader;
        this.hook = hook;
        this.newerRuns =
                new NewerRunsLane(loader, hook, stats, filesInFlight, () -> closed || ended);
    }

    public MaintenanceStats stats() {
        return stats;
    }

    /** Whether a round is running now. */
    public boolean isBusy() {
        return inFlight != null && !inFlight.isDone();
    }

    /**
     * After an ingest commit: starts a round in the background if none runs. Never blocks. A commit
     * that arrives while a round runs gets a round right after it.
     */
    public void onCommitted() {
        commitsSeen.incrementAndGet();
        if (ended || closed || System.currentTimeMillis() < notBeforeMillis) {
            return;
        }
        if (isBusy()) {
            committedDuringRound.set(true);
            newerRuns.onCommitted();
            return;
        }
        inFlight = thread.submit(this::runRounds);
    }

    /**
     * Rounds back to back while there is work: a commit arrived during the last one, or its budget
     * left due groups. Compaction that falls behind thus works continuously instead of waiting for
     * the next commit, which writers held by {@code compaction.stall-runs} would not make.
     */
    private void runRounds() {
        boolean again;
        do {
            committedDuringRound.set(false);
            boolean backlog = runRound();
            // At end of input, finish() waits for the round in flight, not for a backlog.
            again =
                    (backlog || committedDuringRound.get())
                            && !closed
                            && !ended
                            && notBeforeMillis == 0;
        } while (again);
    }

    /**
     * At end of input: starts no more rounds and waits for the one in flight (bounded by the round
     * budget), so a bounded job ends with its compaction committed or cleanly failed.
     */
    public void finish() throws InterruptedException {
        ended = true;
        if (inFlight != null) {
            try {
                inFlight.get();
            } catch (ExecutionException e) {
                LOG.warn("Compaction round failed at end of input", e.getCause());
            }
        }
        newerRuns.finish();
    }

    /**
     * Abandons a round in flight (failover, cancellation): it stops before its commit and deletes
     * its files; files of a round stopped mid-write become orphans.
     */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.shutdownNow();
        newerRuns.stop();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        boolean stopped = thread.awaitTermination(10, TimeUnit.SECONDS);
        if (!newerRuns.awaitStopped(deadline) || !stopped) {
            LOG.warn("A Weir compaction thread did not stop within 10 s; it is left behind");
        }
    }

    /** One round; whether its budget left due groups. */
    private boolean runRound() {
        long start = System.nanoTime();
        boolean full = false;
        boolean backlog = false;
        try {
            if (table == null) {
                table = loader.get();
            }
            TableOptions options = table.options();
            if (options.writeOnly()) {
                return false;
            }
            int commits = commitsSeen.get();
            full = retryFull || fullRoundDue(options, commits);
            newerRuns.onRoundStarted();
            CompactionRound round =
                    new CompactionRound(
                            table,
                            full,
                            options.compactionThreads(),
                            hook,
                            () -> closed,
                            filesInFlight,
                            FilesInFlight.Lane.ROUNDS);
            CompactionResult result = round.run();
            backlog = round.leftDue() > 0;
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            if (full) {
                commitsAtLastFull = commits;
                lastFullMillis = System.currentTimeMillis();
                retryFull = false;
            }
            if (result != null) {
                stats.compacted(result, millis, round.bytesRead(), round.bytesWritten());
                LOG.info(
                        "Compacted {} file groups ({} files) of table {} as commit {} in {} ms{}",
                        result.fileGroups(),
                        result.filesRemoved(),
                        table.location(),
                        result.commitId(),
                        millis,
                        full ? " (full round)" : "");
            }
            expirePartitionsIfDue(options);
            if (options.snapshotExpireInJob()) {
                expire();
            }
            failures = 0;
            notBeforeMillis = 0;
            stats.roundDone();
        } catch (CompactionRound.AbandonedException | InterruptedException e) {
            LOG.info("Compaction round of table {} abandoned: the job is stopping", location());
        } catch (RuntimeException e) {
            if (closed) {
                LOG.info("Compaction round of table {} stopped: the job is stopping", location());
                return false;
            }
            failures++;
            retryFull |= full;
            long backoff =
                    Math.min(
                            MAX_BACKOFF_MILLIS, FIRST_BACKOFF_MILLIS << Math.min(failures - 1, 20));
            notBeforeMillis = System.currentTimeMillis() + backoff;
            stats.roundFailed();
            if (e instanceof FileGroupCompactionException groupFailure) {
                // A file group that cannot be rewritten fails every round until someone acts:
                // its logs pile up. An error, naming the group and the cause.
                LOG.error(
                        "Compaction of table {} failed on file group {} ({} rounds in a row):"
                                + " {}; ingestion goes on and nothing is lost, but the round's"
                                + " file groups stay uncompacted and their log files accumulate"
                                + " until this is fixed; a round after {} ms tries again",
                        location(),
                        groupFailure.fileGroup(),
                        failures,
                        groupFailure.getCause().toString(),
                        backoff,
                        groupFailure.getCause());
            } else if (failures >= ERROR_AFTER_FAILURES) {
                LOG.error(
                        "Compaction of table {} failed {} rounds in a row; ingestion goes on and"
                                + " nothing is lost, but log files accumulate; a round after {} ms"
                                + " tries again",
                        location(),
                        failures,
                        backoff,
                        e);
            } else {
                LOG.warn(
                        "Compaction of table {} failed ({} in a row); ingestion goes on, the file"
                                + " groups stay as they are (nothing is lost) and a round after"
                                + " {} ms tries again",
                        location(),
                        failures,
                        backoff,
                        e);
            }
        }
        return backlog;
    }

    private boolean fullRoundDue(TableOptions options, int commits) {
        int delta = options.compactionFullDeltaCommits();
        Duration interval = options.compactionFullInterval();
        return (delta > 0 && commits - commitsAtLastFull >= delta)
                || (interval != null
                        && System.currentTimeMillis() - lastFullMillis >= interval.toMillis());
    }

    /**
     * Drops expired time partitions (one CLEAN commit), at most every {@code
     * partition.expiration-check-interval}. Safe next to ingestion and in several jobs of one
     * table: the drop is resolved against the latest state when it commits. A failure is logged and
     * retried by a later round.
     */
    private void expirePartitionsIfDue(TableOptions options) {
        long now = System.currentTimeMillis();
        if (options.get(PartitionOptions.EXPIRATION_TIME) == null
                || now < nextPartitionExpiryMillis) {
            return;
        }
        nextPartitionExpiryMillis =
                now + options.get(PartitionOptions.EXPIRATION_CHECK_INTERVAL).toMillis();
        try {
            ExpirePartitionsResult result = table.expirePartitions().commit();
            stats.partitionsExpired(result.partitions().size());
            if (result.commitId() >= 0) {
                LOG.info(
                        "Dropped {} expired partitions ({} files) of table {} as commit {}",
                        result.partitions().size(),
                        result.files(),
                        table.location(),
                        result.commitId());
            }
        } catch (RuntimeException e) {
            nextPartitionExpiryMillis = 0; // retry with the next round
            LOG.warn(
                    "Partition expiry of table {} failed; a later round tries again",
                    location(),
                    e);
        }
    }

    /** Expiry failures do not hold compaction back: the next round expires again. */
    private void expire() {
        try {
            ExpireSnapshotsResult result = table.expireSnapshots().commit();
            stats.expired();
            if (result.expiredSnapshots() > 0) {
                LOG.info(
                        "Expired {} snapshots of table {} (earliest retained commit {}), deleted"
                                + " {} data files",
                        result.expiredSnapshots(),
                        table.location(),
                        result.earliestRetained(),
                        result.deletedDataFiles().size());
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Snapshot expiry of table {} failed; the next round tries again",
                    location(),
                    e);
        }
    }

    private String location() {
        return table == null ? "(not loaded)" : table.location();
    }
}
