package io.weir.flink.compaction;

import io.weir.CompactionResult;
import io.weir.FileGroupId;

import java.io.Serializable;
import java.util.List;

/**
 * A test seam of compaction in an ingestion job: called on the compaction thread. It is serialized
 * with the job; an implementation that counts across restarts keeps its state outside the instance.
 * An exception thrown here fails the round as any compaction failure would (logged, retried later).
 */
public interface CompactionHook extends Serializable {

    /** Before the file groups of a round are rewritten (a test may sleep here). */
    default void beforeRewrite(List<FileGroupId> groups) {}

    /** After a round's compaction commit landed. */
    default void afterCompaction(CompactionResult result) {}
}
