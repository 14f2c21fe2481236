package io.weir.flink.sink.internal;

import io.weir.Commit;
import io.weir.Table;
import io.weir.flink.sink.WeirCommittable;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The committer's metrics, in the group {@code weir} of the committer operator: commits,
 * committedFiles, committedRecords, lastCommitDurationMs, lastCommittedCheckpoint, lastCommitId,
 * and the table's health ({@link TableHealth}). Flink's own committer metrics count committables
 * (total, succeeded, already committed, failed).
 *
 * <p>Only the committing subtask registers them: the sink routes every committable to committer
 * subtask {@link #COMMITTING_SUBTASK}, and the other subtasks, which never commit, would report -1
 * and zeros that dashboards aggregating over subtasks would mix in.
 */
public final class CommitterMetrics {
    private static final Logger LOG = LoggerFactory.getLogger(CommitterMetrics.class);

    /** The committer subtask that receives every committable (WeirSink's global() routing). */
    public static final int COMMITTING_SUBTASK = 0;

    private final Counter commits = new SimpleCounter();
    private final Counter files = new SimpleCounter();
    private final Counter records = new SimpleCounter();
    private final TableHealth health = new TableHealth(System::currentTimeMillis);
    private volatile long lastDurationMs = -1;
    private volatile long lastCheckpoint = -1;
    private volatile long lastCommitId = -1;

    /** Registers the metrics in {@code operatorGroup} if {@code subtask} is the committing one. */
    public CommitterMetrics(MetricGroup operatorGroup, int subtask) {
        if (subtask != COMMITTING_SUBTASK) {
            return;
        }
        MetricGroup group = operatorGroup.addGroup(WriterMetrics.GROUP);
        group.counter("commits", commits);
        group.counter("committedFiles", files);
        group.counter("committedRecords", records);
        group.gauge("lastCommitDurationMs", (Gauge<Long>) () -> lastDurationMs);
        group.gauge("lastCommittedCheckpoint", (Gauge<Long>) () -> lastCheckpoint);
        group.gauge("lastCommitId", (Gauge<Long>) () -> lastCommitId);
        health.register(group);
    }

    public void committed(WeirCommittable committable, long commitId, long durationMs) {
        commits.inc();
        files.inc(committable.files().size());
        records.inc(committable.recordCount());
        lastDurationMs = durationMs;
        lastCheckpoint = committable.checkpointId();
        lastCommitId = commitId;
    }

    /**
     * Updates the table's health after {@code commit}; a failure (reading a commit file) is logged
     * and leaves the previous figures: it must not fail a commit that landed.
     */
    public void updateHealth(Table table, Commit commit) {
        try {
            health.update(table, commit);
        } catch (RuntimeException e) {
            LOG.warn(
                    "Cannot update the health metrics of table {} after commit {}",
                    table.location(),
                    commit.id(),
                    e);
        }
    }

    public TableHealth health() {
        return health;
    }
}
