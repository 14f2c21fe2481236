package io.weir.bench.e2e.job;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Table;
import io.weir.Tables;

import java.nio.file.Path;

/**
 * A Weir table's history through Weir's API (its connector jar is on the child's classpath only in
 * Weir runs): every commit file ({@code Table.commit(id)}) in order: its kind ({@code APPEND} is an
 * ingest commit), time, added files (path, size, rows, file group, kind and sequence) and removed
 * paths. Sorted runs: each log file is one; the base files of one sequence are one.
 *
 * <p>{@link #poll()} reads the commits made since the last poll: polled while the ingestion runs
 * (by {@link TableHistory}, when the job expires snapshots), it sees every commit before it can
 * expire. A first poll on a table whose early commits expired starts from the earliest retained
 * snapshot's files.
 */
final class WeirHistory {
    private final Table table;
    private final CompactionHistory history = new CompactionHistory();

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

    CompactionHistory history() {
        return history;
    }

    private static CompactionHistory.File of(DataFile f) {
        String group = f.fileGroup().toString();
        String run = f.kind() == FileKind.LOG ? "log:" + f.path() : "base:" + f.sequence();
        return new CompactionHistory.File(group, f.path(), f.sizeInBytes(), f.recordCount(), run);
    }
}
