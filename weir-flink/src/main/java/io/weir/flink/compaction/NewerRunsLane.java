package io.weir.flink.compaction;

import io.weir.CompactionResult;
import io.weir.Table;
import io.weir.util.DaemonThreads;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The second compaction lane of {@link TableMaintainer}: while a round rewrites, merges of the
 * newest runs of every group, planned around the round's files ({@link
 * FilesInFlight.Lane#NEWER_RUNS}), on one thread and one merge at a time. {@link #onCommitted()} is
 * called on the job's task thread and never blocks. A failed merge is logged and counted; no other
 * merge starts until the next round, which compacts those runs itself.
 */
final class NewerRunsLane {
    private static final Logger LOG = LoggerFactory.getLogger(NewerRunsLane.class);

    private final Supplier<Table> loader;
    private final CompactionHook hook;
    private final MaintenanceStats stats;
    private final FilesInFlight filesInFlight;
    private final BooleanSupplier stopped;
    private final ExecutorService thread =
            Executors.newSingleThreadExecutor(DaemonThreads.named("weir-compaction-newer"));
    private final AtomicBoolean committedDuringMerge = new AtomicBoolean();

    // Task thread only.
    private Future<?> inFlight;

    // Set when a merge failed, cleared by the next round.
    private volatile boolean failed;

    // The lane's thread only.
    private Table table;

    /**
     * @param stopped whether the job is ending or closing: no more merges then, and one in flight
     *     is abandoned
     */
    NewerRunsLane(
            Supplier<Table> loader,
            CompactionHook hook,
            MaintenanceStats stats,
            FilesInFlight filesInFlight,
            BooleanSupplier stopped) {
        this.loader = loader;
        this.hook = hook;
        this.stats = stats;
        this.filesInFlight = filesInFlight;
        this.stopped = stopped;
    }

    /** After an ingest commit while a round runs: starts a merge unless one runs. */
    void onCommitted() {
        if (inFlight != null && !inFlight.isDone()) {
            committedDuringMerge.set(true);
            return;
        }
        if (!failed && filesInFlight.holds(FilesInFlight.Lane.ROUNDS)) {
            inFlight = thread.submit(this::runMerges);
        }
    }

    /** A round starts: merges may run again after a failed one. */
    void onRoundStarted() {
        failed = false;
    }

    /** Waits for the merge in flight (end of input). */
    void finish() throws InterruptedException {
        if (inFlight != null) {
            try {
                inFlight.get();
            } catch (ExecutionException e) {
                LOG.warn("Merge of newer runs failed at end of input", e.getCause());
            }
        }
    }

    /** Interrupts the lane's thread (a merge in flight is abandoned) and starts no more. */
    void stop() {
        thread.shutdownNow();
    }

    /** Whether the lane's thread ended by {@code deadlineNanos} ({@link System#nanoTime}). */
    boolean awaitStopped(long deadlineNanos) throws InterruptedException {
        return thread.awaitTermination(
                Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void runMerges() {
        do {
            committedDuringMerge.set(false);
            runMerge();
        } while (committedDuringMerge.get()
                && !stopped.getAsBoolean()
                && !failed
                && filesInFlight.holds(FilesInFlight.Lane.ROUNDS));
    }

    private void runMerge() {
        long start = System.nanoTime();
        try {
            if (table == null) {
                table = loader.get();
            }
            CompactionRound merge =
                    new CompactionRound(
                            table,
                            false,
                            1,
                            hook,
                            stopped,
                            filesInFlight,
                            FilesInFlight.Lane.NEWER_RUNS);
            CompactionResult result = merge.run();
            if (result != null) {
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                stats.compacted(result, millis, merge.bytesRead(), merge.bytesWritten());
                LOG.info(
                        "Merged the newer runs of {} file groups ({} files) of table {} as commit"
                                + " {} in {} ms, while a round rewrites",
                        result.fileGroups(),
                        result.filesRemoved(),
                        table.location(),
                        result.commitId(),
                        millis);
            }
        } catch (CompactionRound.AbandonedException | InterruptedException e) {
            LOG.info("Merge of newer runs abandoned: the job is stopping");
        } catch (RuntimeException e) {
            if (stopped.getAsBoolean()) {
                return;
            }
            failed = true;
            stats.roundFailed();
            LOG.warn(
                    "Merging the newer runs of table {} failed; ingestion goes on and nothing is"
                            + " lost, the round in flight goes on, and its next round compacts"
                            + " them",
                    table == null ? "(not loaded)" : table.location(),
                    e);
        }
    }
}
