package io.weir;

/** What a commit did. */
public enum CommitKind {
    /** Added log (or base) files with new rows and changes. */
    APPEND,
    /**
     * Replaced files of file groups with compacted base files; the table's content is unchanged.
     */
    COMPACT,
    /** Replaced the content of the whole table or of some partitions. */
    OVERWRITE,
    /** Removed files no retained snapshot needs, or expired partitions. */
    CLEAN,
    /**
     * Restored the state of an earlier commit ({@link Commit#baseCommitId()}): the table's files
     * are those of that commit again. Written by {@code Table.rollbackTo}, also to repair a table
     * whose newest commit files are damaged or missing (docs/table-services.md).
     */
    ROLLBACK,
    /**
     * Put a new schema version in force (columns or table options changed, docs/format.md "Schema
     * evolution"); no file is added or removed.
     */
    SCHEMA
}
