package io.weir.flink.sink;

import io.weir.DataFile;
import io.weir.flink.compaction.CompactionHook;

import org.apache.flink.table.data.RowData;

import java.util.List;

/**
 * A test seam: callbacks at the points of the sink where a failure is interesting, so that tests
 * can inject one (by throwing) or observe what happened. It is serialized with the job, so an
 * implementation that must count across task restarts keeps its state outside the instance (a
 * static registry in the test JVM). Production jobs set none.
 *
 * <p>An exception thrown from a callback fails the task as any failure at that point would (in the
 * compaction callbacks of {@link CompactionHook}: fails the compaction round, not the job).
 */
public interface WeirSinkHook extends CompactionHook {

    /** After a row went into the writer's buffer. Called per row: keep it cheap. */
    default void afterWrite(int subtask, RowData row) {}

    /**
     * After a writer flushed and handed its files out for a checkpoint, before Flink sends them on:
     * a failure here leaves files no committable will ever name (orphans).
     */
    default void afterPrepareCommit(int subtask, List<DataFile> files) {}

    /** In the committer, right before the commit of a committable. */
    default void beforeCommit(WeirCommittable committable) {}

    /**
     * In the committer, right after the commit landed (or was found to have landed before), before
     * Flink learns of it: a failure here makes Flink commit the same committable again.
     */
    default void afterCommit(WeirCommittable committable, boolean alreadyCommitted) {}
}
