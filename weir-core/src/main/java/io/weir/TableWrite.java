package io.weir;

import io.weir.data.BinaryRow;

import java.util.List;

/**
 * Writes rows into files of a table, to be committed with {@link Table#newAppend()}. Rows are
 * buffered in a bounded, sorted buffer and flushed as one log file per file group when the buffer
 * is full and on {@link #prepareCommit()}.
 *
 * <p>For a table with a primary key, a row's kind says what it does: +I and +U upsert, -D deletes
 * the key, -U is ignored. The bucket is the key hash modulo the bucket count. For an append-only
 * table every row is appended (deletes are rejected) to the bucket given by {@link
 * Builder#appendBucket}.
 *
 * <p>Not thread-safe: one writer per thread (per Flink subtask).
 */
public interface TableWrite extends AutoCloseable {

    /** Writes one row; the row's bytes are copied, so the caller may reuse it. */
    void write(BinaryRow row);

    /** Flushes what is buffered and returns every file written since the last call. */
    List<DataFile> prepareCommit();

    /** Counters of this writer's work so far. */
    WriteStats stats();

    /**
     * Releases the buffer. Buffered rows are discarded and files written but not yet returned by
     * {@link #prepareCommit()} are deleted.
     */
    @Override
    void close();

    /** Configures a {@link TableWrite}. */
    interface Builder {
        /** For append-only tables: the bucket this writer appends to (default 0). */
        Builder appendBucket(int bucket);

        /**
         * For append-only tables: the buckets this writer may append to. Per partition it takes the
         * one whose file group holds the most bytes of small files that do not fill {@code
         * target-file-size} yet, as of the latest snapshot when the writer is created, else the
         * first.
         */
        Builder appendBuckets(int... buckets);

        /**
         * Writes rows of this schema version (default: the current one), so that a job keeps
         * writing the columns it was planned with after the table's schema changed; readers map
         * them by field id (docs/format.md, "Schema evolution").
         */
        Builder useSchema(int schemaId);

        /** Overrides the table's {@code write-buffer-size} for this writer. */
        Builder writeBufferSize(long bytes);

        TableWrite create();
    }
}
