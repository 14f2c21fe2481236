package io.weir.flink.source;

import io.weir.ChangeTask;
import io.weir.FileGroupId;
import io.weir.ScanTask;

import org.apache.flink.api.connector.source.SourceSplit;

import java.util.Objects;

/**
 * One unit of reading: a file group of one snapshot ({@link ScanTask}, rows read as +I) or the net
 * changes of a file group between two commits ({@link ChangeTask}, rows read as +I, -U, +U, -D).
 * Immutable; {@link #recordsToSkip()} is the number of rows of the split already emitted before a
 * checkpoint, skipped when the split is read again after a restore.
 */
public final class WeirSplit implements SourceSplit {
    private final ScanTask scanTask;
    private final ChangeTask changeTask;
    private final long recordsToSkip;

    private WeirSplit(ScanTask scanTask, ChangeTask changeTask, long recordsToSkip) {
        if (recordsToSkip < 0) {
            throw new IllegalArgumentException("Invalid records to skip: " + recordsToSkip);
        }
        this.scanTask = scanTask;
        this.changeTask = changeTask;
        this.recordsToSkip = recordsToSkip;
    }

    /** A split reading one file group of a snapshot. */
    public static WeirSplit of(ScanTask task) {
        return new WeirSplit(Objects.requireNonNull(task, "task"), null, 0);
    }

    /** A split reading the changes of one file group between two commits. */
    public static WeirSplit of(ChangeTask task) {
        return new WeirSplit(null, Objects.requireNonNull(task, "task"), 0);
    }

    /** The same split with {@code count} rows to skip when it is read. */
    public WeirSplit withRecordsToSkip(long count) {
        return new WeirSplit(scanTask, changeTask, count);
    }

    /** Whether the split reads a snapshot (else changes). */
    public boolean isSnapshot() {
        return scanTask != null;
    }

    /** The snapshot task; only for a {@linkplain #isSnapshot() snapshot split}. */
    public ScanTask scanTask() {
        if (scanTask == null) {
            throw new IllegalStateException("Split " + splitId() + " reads changes");
        }
        return scanTask;
    }

    /** The change task; only for a split that is not a snapshot split. */
    public ChangeTask changeTask() {
        if (changeTask == null) {
            throw new IllegalStateException("Split " + splitId() + " reads a snapshot");
        }
        return changeTask;
    }

    public FileGroupId fileGroup() {
        return scanTask != null ? scanTask.fileGroup() : changeTask.fileGroup();
    }

    /**
     * The commit the split reads up to: its snapshot, or the end of its change range. The splits of
     * one file group must be read in this order.
     */
    public long commitOrder() {
        return scanTask != null ? scanTask.snapshotId() : changeTask.toSnapshotId();
    }

    public long recordsToSkip() {
        return recordsToSkip;
    }

    /**
     * Unique within a job: one split per file group per snapshot or per change range, and change
     * ranges of one group never share an end.
     */
    @Override
    public String splitId() {
        return scanTask != null
                ? "snapshot-" + scanTask.snapshotId() + ":" + scanTask.fileGroup()
                : "changes-"
                        + changeTask.fromSnapshotId()
                        + "-"
                        + changeTask.toSnapshotId()
                        + ":"
                        + changeTask.fileGroup();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WeirSplit other
                && recordsToSkip == other.recordsToSkip
                && Objects.equals(scanTask, other.scanTask)
                && Objects.equals(changeTask, other.changeTask);
    }

    @Override
    public int hashCode() {
        return Objects.hash(scanTask, changeTask, recordsToSkip);
    }

    @Override
    public String toString() {
        return "WeirSplit(" + splitId() + ", skip " + recordsToSkip + ")";
    }
}
