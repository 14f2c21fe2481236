package io.weir.flink.sink.internal;

import io.weir.Tables;
import io.weir.flink.compaction.CompactionHook;
import io.weir.flink.compaction.MaintenanceStats;
import io.weir.flink.compaction.TableMaintainer;
import io.weir.flink.sink.WeirCommittable;
import io.weir.io.FileIO;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.function.SerializableSupplier;

/**
 * The sink's post-commit topology (parallelism 1, after the committer): each committable the
 * committer committed starts a compaction round of the table in the background ({@link
 * TableMaintainer}) unless one is running. The task thread only hands the trigger over, so
 * checkpoints and the committer never wait for compaction. The operator keeps no state: a round in
 * flight at a failover is abandoned, and the next commit after the restore starts a new one.
 */
public final class PostCommitCompactor extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<CommittableMessage<WeirCommittable>, Void>,
                BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final SerializableSupplier<FileIO> io;
    private final String location;
    private final CompactionHook hook;
    private transient TableMaintainer maintainer;

    public PostCommitCompactor(
            SerializableSupplier<FileIO> io, String location, CompactionHook hook) {
        this.io = io;
        this.location = location;
        this.hook = hook;
    }

    @Override
    public void open() throws Exception {
        super.open();
        maintainer = new TableMaintainer(() -> Tables.load(io.get(), location), hook);
        registerMetrics(getMetricGroup().addGroup(WriterMetrics.GROUP), maintainer.stats());
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<WeirCommittable>> element) {
        if (element.getValue() instanceof CommittableWithLineage<?>) {
            maintainer.onCommitted();
        }
    }

    @Override
    public void endInput() throws Exception {
        maintainer.finish();
    }

    @Override
    public void close() throws Exception {
        try {
            if (maintainer != null) {
                maintainer.close();
            }
        } finally {
            super.close();
        }
    }

    private static void registerMetrics(MetricGroup group, MaintenanceStats stats) {
        group.gauge("compactionRounds", (Gauge<Long>) stats::rounds);
        group.gauge("compactionFailedRounds", (Gauge<Long>) stats::failedRounds);
        group.gauge("compactionConsecutiveFailures", (Gauge<Long>) stats::consecutiveFailures);
        group.gauge("compactions", (Gauge<Long>) stats::compactions);
        group.gauge("compactedFileGroups", (Gauge<Long>) stats::compactedFileGroups);
        group.gauge("lastCompactionDurationMs", (Gauge<Long>) stats::lastCompactionMillis);
        group.gauge("lastCompactionCommitId", (Gauge<Long>) stats::lastCompactionCommitId);
        group.gauge("lastCompactionBytesRead", (Gauge<Long>) stats::lastCompactionBytesRead);
        group.gauge("lastCompactionBytesWritten", (Gauge<Long>) stats::lastCompactionBytesWritten);
        group.gauge("snapshotExpiries", (Gauge<Long>) stats::expiries);
        group.gauge("expiredPartitions", (Gauge<Long>) stats::expiredPartitions);
    }
}
