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
 * Weir runs): every commit file from the first retained one ({@code Table.commit(id)}): its kind
 * ({@code APPEND} is an ingest commit), time, added files (path, size, rows, file group, kind and
 * sequence) and removed paths. Sorted runs: each log file is one; the base files of one sequence
 * are one.
 */
final class WeirHistory {
    private WeirHistory() {}

    static CompactionHistory read(Path dir) {
        Table table = Tables.load(dir.toString());
        CompactionHistory history = new CompactionHistory();
        long first = Math.max(1, table.earliestRetainedCommit());
        long last = table.currentSnapshot().id();
        if (first > 1) {
            history.start(table.snapshot(first - 1).files().stream().map(WeirHistory::of).toList());
        }
        for (long id = first; id <= last; id++) {
            Commit commit = table.commit(id);
            history.commit(
                    id,
                    commit.timestampMillis(),
                    commit.kind() == CommitKind.APPEND,
                    commit.added().stream().map(WeirHistory::of).toList(),
                    commit.removed());
        }
        return history;
    }

    private static CompactionHistory.File of(DataFile f) {
        String group = f.fileGroup().toString();
        String run = f.kind() == FileKind.LOG ? "log:" + f.path() : "base:" + f.sequence();
        return new CompactionHistory.File(group, f.path(), f.sizeInBytes(), f.recordCount(), run);
    }
}
