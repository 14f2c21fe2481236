package io.weir;

import java.util.List;

/**
 * Bulk insert: writes rows as sorted Parquet base files directly, with no log files and nothing
 * left for compaction; for batch loads. Create it with {@link Table#newBulkWrite()}, commit its
 * files with {@link Table#newAppend()} (or {@link Table#newOverwrite()}) like a {@link
 * TableWrite}'s.
 *
 * <p>It sorts everything it is given by (partition, bucket, primary key, arrival) with bounded
 * memory: rows go into a sort buffer of {@code write-buffer-size}; when it is full the buffer is
 * sorted and spilled as a run to a local temporary file; {@link #prepareCommit()} merges the runs
 * and writes each file group's rows as base files of about {@code target-file-size}, one file open
 * at a time. Spill files are deleted when merged, and all of them by {@link #close()}, after a
 * success or a failure.
 *
 * <p>Semantics are those of {@link TableWrite} (docs/bulk-insert.md): the result of committing a
 * bulk write equals the result of committing the same rows written by a {@code TableWrite}.
 *
 * <ul>
 *   <li>Keyed tables: rows of one key are merged with the table's merge engine (the latest wins, or
 *       the greatest {@code sequence.field}); a winning delete removes the key. The base files of a
 *       file group get a sequence newer than every file of the group at commit, so the new rows win
 *       over the older ones, as an upsert does. Deletes cannot live in a base file: the winning
 *       deletes of a file group, if any, go to one log file of the group (an insert-only input,
 *       such as any batch SQL INSERT, writes base files only).
 *   <li>Append-only tables: every row is written, in arrival order per bucket.
 * </ul>
 *
 * <p>A bulk write is one sort: {@link #prepareCommit()} finishes it, and writing more rows
 * afterwards fails. In {@link #stats()}, {@code flushes} counts spilled runs.
 */
public interface BulkWrite extends TableWrite {

    /**
     * Sorts and merges everything written and writes it as base files; returns them (not yet
     * committed). Later calls return nothing more.
     */
    @Override
    List<DataFile> prepareCommit();

    /** Configures a {@link BulkWrite}. */
    interface Builder {
        /** For append-only tables: the bucket this writer appends to (default 0). */
        Builder appendBucket(int bucket);

        /**
         * Writes rows of this schema version (default: the current one), so that a job keeps
         * writing the columns it was planned with after the table's schema changed; readers map
         * them by field id (docs/format.md, "Schema evolution").
         */
        Builder useSchema(int schemaId);

        /** Overrides the table's {@code write-buffer-size}: the sort memory of this writer. */
        Builder writeBufferSize(long bytes);

        /**
         * The local directory for spill files (default: {@code java.io.tmpdir}); the writer creates
         * a directory of its own in it.
         */
        Builder spillDirectory(String directory);

        /** The most spilled runs one merge reads at a time (default 64, at least 2). */
        Builder maxMergeFanIn(int runs);

        BulkWrite create();
    }
}
