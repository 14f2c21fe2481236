package io.weir.bench.e2e.job;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Table;
import io.weir.Tables;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A Weir table's history through Weir's API (its connector jar is on the child's classpath only in
 * Weir runs): every commit file ({@code Table.commit(id)}) in order: its kind ({@code APPEND} is an
 * ingest commit), time, added files (path, size, rows, file group, kind and sequence) and removed
 * paths. Sorted runs: each log file is one; the base files of one sequence are one.
 *
 * <p>{@link #poll()} reads the commits made since the last poll. Followed while the ingestion runs
 * (by {@link TableHistory}, when the job expires snapshots), it holds a reader lease ({@link
 * Table#leases()}, docs/table-services.md "Reader leases") on the last commit it read, taken before
 * the job's first commit and moved on after each poll: expiry keeps that commit and every later
 * one, so no commit expires before it was read, however late a poll comes. A first poll on a table
 * whose early commits expired starts from the earliest retained snapshot's files.
 */
final class WeirHistory {
    private final Table table;
    private final CompactionHistory history = new CompactionHistory();

    /** The reader lease's consumer id, under the table's {@code _weir/consumers/}. */
    static final String CONSUMER = "weir-bench-history";

    /** Long enough that a poll delayed by a loaded machine still renews it in time. */
    private static final Duration LEASE = Duration.ofMinutes(10);

    /** The next commit to read; 0 before the first poll. */
    private long next;

    WeirHistory(Path dir) {
        this.table = Tables.load(dir.toString());
    }

    /** Reads the commits made since the last poll. */
    void poll() {
        table.refresh();
        long last = table.currentSnapshot().id();
        if (next == 0) {
            long first = Math.max(1, table.earliestRetainedCommit());
            if (first > 1 && first <= last) {
                history.start(table.snapshot(first).files().stream().map(WeirHistory::of).toList());
                first++;
            }
            next = first;
        }
        for (; next <= last; next++) {
            Commit commit = table.commit(next);
            history.commit(
                    next,
                    commit.timestampMillis(),
                    commit.kind() == CommitKind.APPEND,
                    commit.added().stream().map(WeirHistory::of).toList(),
                    commit.removed());
        }
    }

    /**
     * Takes or moves the reader lease to the last commit read (before the first poll: the table's
     * current commit), so that expiry keeps every commit not read yet.
     */
    void holdUnread() {
        long held = next == 0 ? table.currentSnapshot().id() : next - 1;
        table.leases().acquire(CONSUMER, held, LEASE);
    }

    /** Ends the reader lease. */
    void release() {
        table.leases().release(CONSUMER);
    }

    CompactionHistory history() {
        return history;
    }

    private static CompactionHistory.File of(DataFile f) {
        String group = f.fileGroup().toString();
        String run = f.kind() == FileKind.LOG ? "log:" + f.path() : "base:" + f.sequence();
        return new CompactionHistory.File(group, f.path(), f.sizeInBytes(), f.recordCount(), run);
    }
}
