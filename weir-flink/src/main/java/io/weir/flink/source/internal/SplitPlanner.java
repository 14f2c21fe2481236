package io.weir.flink.source.internal;

import io.weir.ChangeTask;
import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.IncrementalScan;
import io.weir.Rescale;
import io.weir.ScanTask;
import io.weir.Table;
import io.weir.exceptions.ValidationException;
import io.weir.flink.source.StartMode;
import io.weir.flink.source.WeirSplit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns a {@link ReadSpec} and the table's commits into splits: the start of a read, then (for a
 * streaming read) the changes of each newly discovered range of commits.
 */
public final class SplitPlanner {
    private final Table table;
    private final ReadSpec spec;

    /**
     * Splits planned up to a commit.
     *
     * @param position the last commit the splits cover
     */
    public record Plan(long position, List<WeirSplit> splits) {}

    public SplitPlanner(Table table, ReadSpec spec) {
        this.table = table;
        this.spec = spec;
    }

    /**
     * The oldest commit the start of the read needs (its lease goes there before planning): the
     * snapshot read, or the commit after which changes are read.
     *
     * @throws io.weir.exceptions.SnapshotExpiredException if that snapshot expired
     */
    public long startCommit() {
        table.refresh();
        if (spec.isIncremental()) {
            return spec.incrementalFrom();
        }
        long current = table.currentSnapshot().id();
        return switch (spec.startMode()) {
            case FULL -> resolveSnapshot();
            case LATEST -> current;
            case FROM_SNAPSHOT -> Math.min(resolveFrom(current), current);
        };
    }

    /**
     * Whether the start follows the table's latest commit (no commit, timestamp or range given), so
     * that a start commit expired before the lease reached it can be resolved again.
     */
    public boolean startsAtLatestCommit() {
        return !spec.isIncremental()
                && spec.snapshotId() < 0
                && spec.timestampMillis() < 0
                && spec.startMode() != StartMode.FROM_SNAPSHOT;
    }

    /** The splits of the start position, up to the latest commit for change reads. */
    public Plan start() {
        table.refresh();
        if (spec.isIncremental()) {
            return new Plan(
                    spec.incrementalTo(), changes(spec.incrementalFrom(), spec.incrementalTo()));
        }
        long current = table.currentSnapshot().id();
        switch (spec.startMode()) {
            case FULL:
                long snapshot = resolveSnapshot();
                return new Plan(snapshot, snapshot(snapshot));
            case LATEST:
                return new Plan(current, spec.streaming() ? List.of() : snapshot(current));
            case FROM_SNAPSHOT:
                long from = resolveFrom(current);
                if (from >= current) {
                    ValidationException.check(
                            spec.streaming() || from == current,
                            "Cannot read the changes of table %s from commit %s: the latest commit"
                                    + " is %s",
                            table.location(),
                            from + 1,
                            current);
                    return new Plan(from, List.of());
                }
                return new Plan(current, changes(from, current));
            default:
                throw new IllegalStateException("Unknown start mode " + spec.startMode());
        }
    }

    /** The changes of the commits after {@code position} up to the latest one. */
    public Plan discover(long position) {
        table.refresh();
        long latest = table.currentSnapshot().id();
        if (latest <= position) {
            return new Plan(position, List.of());
        }
        return new Plan(latest, changes(position, latest));
    }

    private long resolveSnapshot() {
        if (spec.snapshotId() >= 0) {
            return table.snapshot(spec.snapshotId()).id();
        } else if (spec.timestampMillis() >= 0) {
            return table.snapshotAsOf(spec.timestampMillis()).id();
        }
        return table.currentSnapshot().id();
    }

    /** The commit after which changes are read: before the given commit or timestamp. */
    private long resolveFrom(long current) {
        if (spec.snapshotId() >= 0) {
            return spec.snapshotId() - 1;
        }
        long ts = spec.timestampMillis();
        // Once commits expired, commit 1 is gone: the snapshot before the time says where to
        // start, or that the changes since then have expired.
        boolean noneExpired = table.earliestRetainedCommit() <= 1;
        if (current == 0 || (noneExpired && table.commit(1).timestampMillis() >= ts)) {
            return 0;
        }
        return table.snapshotAsOf(ts - 1).id();
    }

    private List<WeirSplit> snapshot(long snapshotId) {
        if (snapshotId == 0) {
            return List.of();
        }
        return table
                .newScan()
                .useSnapshot(snapshotId)
                .useSchema(spec.schemaId())
                .filter(spec.filter())
                .plan()
                .stream()
                .map(task -> spec.baseFilesOnly() ? baseFiles(task) : task)
                .filter(task -> !task.files().isEmpty())
                .map(WeirSplit::of)
                .toList();
    }

    /** The task without its log files: the group as of its last compaction (read-optimized). */
    private static ScanTask baseFiles(ScanTask task) {
        return new ScanTask(
                task.snapshotId(),
                task.fileGroup(),
                task.files().stream().filter(f -> f.kind() == FileKind.BASE).toList());
    }

    /**
     * The net changes of (from, to]. A compaction changes no row but rewrites a file group's files,
     * so ranges of appends and compactions only read the groups that an append touched: diffing a
     * group that was only compacted would read it twice for nothing.
     */
    List<WeirSplit> changes(long from, long to) {
        if (from >= to) {
            return List.of();
        }
        Set<FileGroupId> appended = new HashSet<>();
        boolean onlyAppendsAndCompactions = true;
        // From the end down, and no further than needed: a rollback's abandoned commits (which
        // may be damaged) lie before it.
        for (long id = to; id > from; id--) {
            Commit commit = table.commit(id);
            if (commit.properties().containsKey(Rescale.COMMIT_PROPERTY)) {
                // A rescale changes no row, but the file groups: the changes before it and after
                // it are read apart.
                List<WeirSplit> splits = new ArrayList<>(changes(from, id - 1));
                splits.addAll(changes(id, to));
                return splits;
            }
            if (commit.kind() == CommitKind.APPEND && commit.removed().isEmpty()) {
                commit.added().stream().map(DataFile::fileGroup).forEach(appended::add);
            } else if (commit.kind() != CommitKind.COMPACT && commit.kind() != CommitKind.SCHEMA) {
                onlyAppendsAndCompactions = false;
                break;
            }
        }
        if (onlyAppendsAndCompactions && appended.isEmpty()) {
            return List.of();
        }
        IncrementalScan scan =
                table.newIncrementalScan()
                        .between(from, to)
                        .useSchema(spec.schemaId())
                        .filter(spec.filter());
        List<ChangeTask> tasks = scan.plan();
        boolean skipCompacted = onlyAppendsAndCompactions;
        return tasks.stream()
                .filter(t -> !skipCompacted || appended.contains(t.fileGroup()))
                .map(WeirSplit::of)
                .toList();
    }
}
