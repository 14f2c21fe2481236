package io.weir;

/**
 * What a compaction did.
 *
 * @param commitId the compaction's commit
 * @param fileGroups file groups compacted
 * @param filesRemoved files replaced
 * @param filesAdded base files written
 * @param recordsWritten records in the new base files
 */
public record CompactionResult(
        long commitId, int fileGroups, int filesRemoved, int filesAdded, long recordsWritten) {}
