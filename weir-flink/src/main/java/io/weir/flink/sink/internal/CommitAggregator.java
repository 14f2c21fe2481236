package io.weir.flink.sink.internal;

import io.weir.DataFile;
import io.weir.flink.compat.RuntimeCompat;
import io.weir.flink.sink.WeirCommittable;
import io.weir.flink.sink.WeirWriteResult;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The pre-commit topology's single operator (parallelism 1): merges the write results of all
 * writers for one checkpoint into ONE {@link WeirCommittable}, which the sink routes to committer
 * subtask 0, so that each checkpoint is one atomic Weir commit.
 *
 * <p><b>When it emits.</b> Writers send their results before they forward a checkpoint barrier, and
 * Flink's sink translation keeps checkpoints aligned for sink operators, so when this operator sees
 * barrier {@code n} it has received every result of checkpoints up to {@code n}. It emits in {@link
 * #prepareSnapshotPreBarrier}: one {@link CommittableSummary} and one {@link
 * CommittableWithLineage} tagged {@code n}, ahead of the barrier, so the committer stores them in
 * checkpoint {@code n} and commits them when it completes. Results of an aborted checkpoint simply
 * join the next one. Nothing is pending at a snapshot, so this operator keeps no results in state.
 *
 * <p><b>End of input.</b> Flink 1.20 and 2.3 tag a writer's final results with its last checkpoint
 * id plus one (not {@code EOI}). The final committable takes the largest of that tag and the last
 * barrier plus one: never above the final checkpoint (streaming, committed when it completes), and
 * committed at end of input in batch mode.
 *
 * <p><b>Writer id.</b> See {@link io.weir.flink.sink.WeirSink}: minted at the first start and kept
 * in this operator's state.
 */
public final class CommitAggregator
        extends AbstractStreamOperator<CommittableMessage<WeirCommittable>>
        implements OneInputStreamOperator<
                        CommittableMessage<WeirWriteResult>, CommittableMessage<WeirCommittable>>,
                BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(CommitAggregator.class);

    private static final ListStateDescriptor<String> WRITER_ID =
            new ListStateDescriptor<>("weir-writer-id", StringSerializer.INSTANCE);

    private final String commitUser;
    private final CommitPlan plan;

    private transient List<DataFile> pending;
    private transient long lastBarrier;
    private transient long maxResultCheckpoint;
    private transient String writerId;

    public CommitAggregator(String commitUser, CommitPlan plan) {
        this.commitUser = commitUser;
        this.plan = plan;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        ListState<String> state = context.getOperatorStateStore().getListState(WRITER_ID);
        String restored = null;
        for (String id : state.get()) {
            restored = id;
        }
        writerId = restored != null ? restored : newWriterId();
        state.update(List.of(writerId));
        lastBarrier = context.getRestoredCheckpointId().orElse(0L);
        maxResultCheckpoint = lastBarrier;
        pending = new ArrayList<>();
        LOG.info(
                "Weir sink commits as writer {} ({}), from checkpoint {}",
                writerId,
                restored != null ? "restored" : "new",
                lastBarrier);
    }

    /**
     * {@code <commitUser>-<job id>-<operator id>}; with checkpointing, plus a random suffix. A job
     * that takes checkpoints restores its writer id from state, so a restart without state is a new
     * run whose checkpoint ids start again at 1: with the same id (a job id fixed by the
     * deployment, as in application mode with HA) its first commits would pass for re-commits of
     * the previous run's and be skipped. Without checkpoints there is no state to restore from, and
     * a rerun of the same job must find its own earlier commit: the id stays deterministic.
     */
    private String newWriterId() {
        String id =
                commitUser
                        + "-"
                        + getRuntimeContext().getJobInfo().getJobId()
                        + "-"
                        + getOperatorID();
        if (RuntimeCompat.checkpointingEnabled(getRuntimeContext())) {
            id += "-" + UUID.randomUUID().toString().substring(0, 8);
        }
        return id;
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<WeirWriteResult>> element) {
        CommittableMessage<WeirWriteResult> message = element.getValue();
        long checkpoint = message.getCheckpointIdOrEOI();
        if (checkpoint != CommittableMessage.EOI) {
            maxResultCheckpoint = Math.max(maxResultCheckpoint, checkpoint);
        }
        if (message instanceof CommittableWithLineage<WeirWriteResult> result) {
            pending.addAll(result.getCommittable().files());
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        if (plan.isOverwrite() && !pending.isEmpty()) {
            throw new IllegalStateException(
                    "Weir cannot overwrite at checkpoint "
                            + checkpointId
                            + ": INSERT OVERWRITE runs in batch execution mode only (each"
                            + " checkpoint would replace the previous one's rows)");
        }
        lastBarrier = Math.max(lastBarrier, checkpointId);
        emit(checkpointId);
    }

    @Override
    public void endInput() {
        emit(Math.max(lastBarrier + 1, maxResultCheckpoint));
    }

    private void emit(long checkpointId) {
        WeirCommittable committable = plan.committable(writerId, checkpointId, pending);
        pending = new ArrayList<>();
        if (committable == null) {
            return;
        }
        output.collect(new StreamRecord<>(new CommittableSummary<>(0, 1, checkpointId, 1, 1, 0)));
        output.collect(
                new StreamRecord<>(new CommittableWithLineage<>(committable, checkpointId, 0)));
    }
}
