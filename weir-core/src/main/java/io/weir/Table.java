package io.weir;

import io.weir.io.FileIO;
import io.weir.options.TableOptions;

/**
 * A Weir table: its metadata, its committed snapshots, and the factories of the operations on it.
 * Operations read the latest committed state when they commit, so a {@code Table} object may be
 * kept for the life of a job; {@link #refresh()} updates what the getters return.
 */
public interface Table {

    /** The table's root location. */
    String location();

    FileIO io();

    /** The current schema and options. */
    TableMetadata metadata();

    /**
     * One version of the schema and options, as a snapshot names it ({@link Snapshot#schemaId}).
     */
    TableMetadata metadata(int schemaId);

    /** The ids of every schema version written, ascending: each is {@link #metadata(int)}'s. */
    java.util.List<Integer> schemaIds();

    default Schema schema() {
        return metadata().schema();
    }

    default TableOptions options() {
        return metadata().options();
    }

    /** The latest committed snapshot as of the last load or refresh (id 0: nothing committed). */
    Snapshot currentSnapshot();

    /**
     * The table as it was right after commit {@code commitId}; also after the commit expired if a
     * {@linkplain #tags() tag} names it.
     *
     * @throws io.weir.exceptions.SnapshotExpiredException if the snapshot expired (and no tag names
     *     it)
     */
    Snapshot snapshot(long commitId);

    /**
     * The table as it was at {@code timestampMillis}: the latest commit made at or before it.
     *
     * @throws io.weir.exceptions.SnapshotExpiredException if the table's state then expired
     */
    Snapshot snapshotAsOf(long timestampMillis);

    /**
     * The content of one commit.
     *
     * @throws io.weir.exceptions.SnapshotExpiredException if the commit expired
     */
    Commit commit(long commitId);

    /** Re-reads the latest metadata and snapshot. */
    void refresh();

    /** A writer of rows (inserts, updates, deletes) that produces files to commit. */
    TableWrite.Builder newWrite();

    /**
     * A bulk writer: sorts all its rows (spilling to local disk) and writes them as sorted base
     * files directly, for batch loads (docs/bulk-insert.md).
     */
    BulkWrite.Builder newBulkWrite();

    /** Commits files written by {@link TableWrite}s. */
    AppendFiles newAppend();

    /** Replaces the content of partitions, or of the whole table, with new files. */
    OverwriteFiles newOverwrite();

    /**
     * Rolls the table back to snapshot {@code commitId}: commits a {@link CommitKind#ROLLBACK}
     * whose files are exactly that snapshot's. Nothing is deleted; the files only the newer
     * snapshots need go with snapshot expiry and orphan removal. This is also the repair of a table
     * whose newest commit file is damaged or missing (docs/table-services.md, "Damaged metadata"):
     * the rollback takes an id above every commit ever made, and loading it never reads the commits
     * it abandons.
     *
     * @return the new latest snapshot
     * @throws io.weir.exceptions.ValidationException if {@code commitId} is not before the latest
     * @throws io.weir.exceptions.SnapshotExpiredException if the snapshot expired
     * @throws io.weir.exceptions.CorruptFileException if the snapshot cannot be read either
     */
    Snapshot rollbackTo(long commitId);

    /** Reads a snapshot: plan file groups, then read merged rows. */
    TableScan newScan();

    /** Reads the net changes between two snapshots. */
    IncrementalScan newIncrementalScan();

    /** Folds log files into sorted base files. */
    Compaction newCompaction();

    /**
     * Rewrites the table, or one partition of it, into another number of buckets, in one commit
     * (docs/rescale.md).
     */
    Rescale newRescale();

    /**
     * Changes columns and options as one new schema version, without rewriting data
     * (docs/format.md, "Schema evolution").
     */
    UpdateSchema updateSchema();

    /**
     * The earliest retained commit: snapshots before it have expired ({@link
     * io.weir.exceptions.SnapshotExpiredException}); 0 if none has.
     */
    long earliestRetainedCommit();

    /** Expires old snapshots and deletes the files only they need. */
    ExpireSnapshots expireSnapshots();

    /** Drops the time partitions older than the retention, in one commit. */
    ExpirePartitions expirePartitions();

    /** Deletes files of failed writes that no metadata references. */
    RemoveOrphanFiles removeOrphanFiles();

    /** Leases by which readers keep the snapshots they read from expiring. */
    SnapshotLeases leases();

    /**
     * Leases by which writers keep the files they have not committed yet from orphan removal
     * (docs/table-services.md, "Writer leases").
     */
    WriterLeases writerLeases();

    /** Named snapshots that expiry keeps (create, delete, list). */
    Tags tags();
}
