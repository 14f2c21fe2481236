package io.weir.flink.catalog.system;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.Table;
import io.weir.exceptions.CorruptFileException;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The retained commits of a table up to a snapshot, replayed in order: the rows of {@code
 * $commits}, and when each file was added (for the last-update times of {@code $partitions} and
 * {@code $buckets}).
 *
 * <p>Only retained commits can be read: the replay starts at the earliest retained commit R, from
 * the state of snapshot R (so the totals are exact), and the records that commit R removed are
 * unknown (null) when it removed files, because the state before it has expired. A commit lists the
 * paths it removes; their record counts come from the state the replay tracks.
 */
final class CommitHistory {
    private final List<RowData> rows = new ArrayList<>();
    private final Map<String, Long> addedMillis = new HashMap<>();

    private CommitHistory() {}

    /** Replays the retained commits up to the scan's snapshot. */
    static CommitHistory of(SystemScan scan) {
        Table table = scan.table();
        CommitHistory history = new CommitHistory();
        long last = scan.snapshot().id();
        long first = Math.max(1, table.earliestRetainedCommit());
        Map<String, DataFile> live = new HashMap<>();
        long records = 0;
        long bytes = 0;
        boolean resync = true; // the state before the next commit is unknown
        for (long id = first; id <= last; id++) {
            Commit commit;
            List<DataFile> state = null;
            try {
                commit = table.commit(id);
                if (resync || commit.baseCommitId() != id - 1) {
                    state = table.snapshot(id).files();
                }
            } catch (CorruptFileException e) {
                // A damaged commit that a rollback abandoned (it repaired the table) has no row.
                if (!abandoned(table, id, last)) {
                    throw e;
                }
                resync = true;
                continue;
            }
            Long removedRecords = 0L;
            if (state != null) {
                // The first retained commit, one after a damaged commit, or a rollback: the state
                // after it is read whole; what it removed is unknown if the state before is.
                if (resync && !commit.removed().isEmpty()) {
                    removedRecords = null;
                }
                resync = false;
                live.clear();
                records = 0;
                bytes = 0;
                for (DataFile f : state) {
                    live.put(f.path(), f);
                    records += f.recordCount();
                    bytes += f.sizeInBytes();
                }
            } else {
                long removed = 0;
                for (String path : commit.removed()) {
                    DataFile f = live.remove(path);
                    if (f != null) {
                        removed += f.recordCount();
                        records -= f.recordCount();
                        bytes -= f.sizeInBytes();
                    }
                }
                removedRecords = removed;
                for (DataFile f : commit.added()) {
                    live.put(f.path(), f);
                    records += f.recordCount();
                    bytes += f.sizeInBytes();
                }
            }
            long added = 0;
            for (DataFile f : commit.added()) {
                added += f.recordCount();
                history.addedMillis.put(f.path(), commit.timestampMillis());
            }
            history.rows.add(
                    GenericRowData.of(
                            commit.id(),
                            TimestampData.fromEpochMillis(commit.timestampMillis()),
                            StringData.fromString(commit.kind().name()),
                            added,
                            removedRecords,
                            commit.added().size(),
                            commit.removed().size(),
                            StringData.fromString(commit.writerId()),
                            commit.checkpointId() < 0 ? null : commit.checkpointId(),
                            commit.schemaId(),
                            commit.baseCommitId() != id - 1 ? commit.baseCommitId() : null,
                            (long) live.size(),
                            records,
                            bytes));
        }
        return history;
    }

    /**
     * Whether a rollback after commit {@code id}, up to {@code last}, restored a state before it.
     */
    private static boolean abandoned(Table table, long id, long last) {
        for (long later = id + 1; later <= last; later++) {
            try {
                Commit c = table.commit(later);
                if (c.baseCommitId() < id) {
                    return true;
                }
            } catch (CorruptFileException e) {
                // another damaged commit: look further
            }
        }
        return false;
    }

    /** One row per retained commit, oldest first. */
    List<RowData> rows() {
        return rows;
    }

    /**
     * When the latest of {@code files} was added: the time of the newest retained commit that added
     * one of them; null if every one was added by a commit that has expired.
     */
    TimestampData lastUpdate(List<DataFile> files) {
        Long latest = null;
        for (DataFile f : files) {
            Long millis = addedMillis.get(f.path());
            if (millis != null && (latest == null || millis > latest)) {
                latest = millis;
            }
        }
        return latest == null ? null : TimestampData.fromEpochMillis(latest);
    }
}
