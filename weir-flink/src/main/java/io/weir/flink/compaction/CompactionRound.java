package io.weir.flink.compaction;

import io.weir.Compaction;
import io.weir.CompactionResult;
import io.weir.DataFile;
import io.weir.ScanTask;
import io.weir.Table;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * One compaction round of an ingestion job: plan the due file groups on the latest snapshot, take
 * what the budget allows, rewrite them on {@code threads} threads, and commit them as ONE
 * compaction commit. Nothing the round writes is visible before that commit; if anything fails (or
 * the round is abandoned) its outputs are deleted, or, if the process dies, stay as orphans for
 * {@code removeOrphanFiles}. The compaction's writer lease keeps orphan removal off them until the
 * commit has landed or failed. The inputs stay live until the commit replaces them, so a failed
 * round loses nothing.
 */
final class CompactionRound {
    private final Table table;
    private final boolean full;
    private final int threads;
    private final CompactionHook hook;
    private final BooleanSupplier abandoned;
    private final FilesInFlight inFlight;
    private final FilesInFlight.Lane lane;
    private long bytesRead;
    private long bytesWritten;
    private int leftDue;

    CompactionRound(
            Table table,
            boolean full,
            int threads,
            CompactionHook hook,
            BooleanSupplier abandoned,
            FilesInFlight inFlight,
            FilesInFlight.Lane lane) {
        this.table = table;
        this.full = full;
        this.threads = threads;
        this.hook = hook;
        this.abandoned = abandoned;
        this.inFlight = inFlight;
        this.lane = lane;
    }

    /**
     * Runs the round; null if no file group was due. Its files are in flight for its lane from the
     * plan until its commit has landed or failed.
     */
    CompactionResult run() throws InterruptedException {
        Compaction compaction = table.newCompaction();
        if (full) {
            compaction.full();
        }
        CompactionBudget budget = CompactionBudget.of(table.options(), threads);
        try {
            List<ScanTask> tasks =
                    inFlight.planAndTake(
                            lane,
                            compaction,
                            planned -> {
                                List<ScanTask> selected = budget.select(planned);
                                leftDue = planned.size() - selected.size();
                                return selected;
                            });
            return tasks.isEmpty() ? null : rewriteAndCommit(compaction, tasks);
        } finally {
            inFlight.release(lane);
        }
    }

    private CompactionResult rewriteAndCommit(Compaction compaction, List<ScanTask> tasks)
            throws InterruptedException {
        if (hook != null) {
            hook.beforeRewrite(tasks.stream().map(ScanTask::fileGroup).toList());
        }
        List<DataFile> outputs = List.of();
        try {
            checkNotAbandoned();
            // No further group once the job stops; a failed group's exception names it.
            outputs = compaction.rewriteAll(tasks, threads, (task, written) -> checkNotAbandoned());
            checkNotAbandoned();
        } catch (InterruptedException | RuntimeException e) {
            // After a failed rewriteAll, none: it deleted its own. Ends the lease either way.
            compaction.abort(outputs);
            throw e;
        }
        CompactionResult result = compaction.commit(tasks, outputs);
        bytesRead =
                tasks.stream()
                        .flatMap(t -> t.files().stream())
                        .mapToLong(DataFile::sizeInBytes)
                        .sum();
        bytesWritten = outputs.stream().mapToLong(DataFile::sizeInBytes).sum();
        if (hook != null) {
            hook.afterCompaction(result);
        }
        return result;
    }

    /** Due file groups the round's budget left for the next round. */
    int leftDue() {
        return leftDue;
    }

    /** Bytes of the files the committed round read (its inputs' sizes); 0 before. */
    long bytesRead() {
        return bytesRead;
    }

    /** Bytes of the base files the committed round wrote; 0 before. */
    long bytesWritten() {
        return bytesWritten;
    }

    private void checkNotAbandoned() {
        if (abandoned.getAsBoolean() || Thread.currentThread().isInterrupted()) {
            throw new AbandonedException();
        }
    }

    /** The round was abandoned because the job is shutting down. */
    static final class AbandonedException extends RuntimeException {
        AbandonedException() {
            super("compaction round abandoned: the job is shutting down", null, false, false);
        }
    }
}
