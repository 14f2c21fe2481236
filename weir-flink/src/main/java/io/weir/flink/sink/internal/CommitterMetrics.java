package io.weir.flink.sink.internal;

import io.weir.flink.sink.WeirCommittable;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * The committer's metrics, in the group {@code weir} of the committer operator: commits,
 * committedFiles, committedRecords, lastCommitDurationMs, lastCommittedCheckpoint, lastCommitId.
 * Flink's own committer metrics count committables (total, succeeded, already committed, failed).
 */
public final class CommitterMetrics {
    private final Counter commits;
    private final Counter files;
    private final Counter records;
    private volatile long lastDurationMs = -1;
    private volatile long lastCheckpoint = -1;
    private volatile long lastCommitId = -1;

    public CommitterMetrics(MetricGroup operatorGroup) {
        MetricGroup group = operatorGroup.addGroup(WriterMetrics.GROUP);
        this.commits = group.counter("commits");
        this.files = group.counter("committedFiles");
        this.records = group.counter("committedRecords");
        group.gauge("lastCommitDurationMs", (Gauge<Long>) () -> lastDurationMs);
        group.gauge("lastCommittedCheckpoint", (Gauge<Long>) () -> lastCheckpoint);
        group.gauge("lastCommitId", (Gauge<Long>) () -> lastCommitId);
    }

    public void committed(WeirCommittable committable, long commitId, long durationMs) {
        commits.inc();
        files.inc(committable.files().size());
        records.inc(committable.recordCount());
        lastDurationMs = durationMs;
        lastCheckpoint = committable.checkpointId();
        lastCommitId = commitId;
    }
}
