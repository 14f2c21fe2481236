package io.weir.flink.sink.internal;

import io.weir.DataFile;
import io.weir.Partition;
import io.weir.flink.compat.HarnessCompat;
import io.weir.flink.sink.TestFiles;
import io.weir.flink.sink.WeirCommittable;
import io.weir.flink.sink.WeirCommittableSerializer;
import io.weir.flink.sink.WeirWriteResult;

import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommitAggregatorTest {
    private static final DataFile F1 = TestFiles.log("f1", Partition.of("a"), 0, 1);
    private static final DataFile F2 = TestFiles.log("f2", Partition.of("a"), 1, 2);
    private static final DataFile F3 = TestFiles.log("f3", Partition.of("b"), 0, 3);

    private static OneInputStreamOperatorTestHarness<
                    CommittableMessage<WeirWriteResult>, CommittableMessage<WeirCommittable>>
            harness(CommitPlan plan, boolean checkpointing, OperatorSubtaskState state)
                    throws Exception {
        var harness =
                new OneInputStreamOperatorTestHarness<
                        CommittableMessage<WeirWriteResult>, CommittableMessage<WeirCommittable>>(
                        new CommitAggregator("user", plan));
        HarnessCompat.setCheckpointing(harness, checkpointing);
        harness.setup(
                CommittableMessageTypeInfo.of(WeirCommittableSerializer::new)
                        .createSerializer(harness.getExecutionConfig().getSerializerConfig()));
        harness.initializeState(state);
        harness.open();
        return harness;
    }

    /** What a writer subtask sends for one checkpoint: a summary, then its results. */
    private static void send(
            OneInputStreamOperatorTestHarness<CommittableMessage<WeirWriteResult>, ?> harness,
            int subtask,
            long checkpoint,
            DataFile... files)
            throws Exception {
        int n = files.length == 0 ? 0 : 1;
        harness.processElement(
                new StreamRecord<>(new CommittableSummary<>(subtask, 2, checkpoint, n, n, 0)));
        if (n > 0) {
            harness.processElement(
                    new StreamRecord<>(
                            new CommittableWithLineage<>(
                                    new WeirWriteResult(List.of(files)), checkpoint, subtask)));
        }
    }

    /** The committables emitted so far, checking each follows its one-committable summary. */
    private static List<WeirCommittable> committables(
            OneInputStreamOperatorTestHarness<?, CommittableMessage<WeirCommittable>> harness) {
        List<WeirCommittable> result = new ArrayList<>();
        List<CommittableMessage<WeirCommittable>> out = harness.extractOutputValues();
        assertThat(out.size() % 2).isZero();
        for (int i = 0; i < out.size(); i += 2) {
            CommittableSummary<WeirCommittable> summary =
                    (CommittableSummary<WeirCommittable>) out.get(i);
            CommittableWithLineage<WeirCommittable> c =
                    (CommittableWithLineage<WeirCommittable>) out.get(i + 1);
            assertThat(summary.getSubtaskId()).isZero();
            assertThat(summary.getNumberOfSubtasks()).isEqualTo(1);
            assertThat(summary.getNumberOfCommittables()).isEqualTo(1);
            assertThat(summary.getCheckpointIdOrEOI()).isEqualTo(c.getCheckpointIdOrEOI());
            assertThat(c.getCommittable().checkpointId()).isEqualTo(c.getCheckpointIdOrEOI());
            result.add(c.getCommittable());
        }
        return result;
    }

    @Test
    void mergesAllWritersOfACheckpointIntoOneCommittableBeforeTheBarrier() throws Exception {
        try (var harness = harness(CommitPlan.append(), true, null)) {
            send(harness, 0, 1, F1);
            send(harness, 1, 1, F2, F3);
            harness.prepareSnapshotPreBarrier(1);
            List<WeirCommittable> out = committables(harness);
            assertThat(out).hasSize(1);
            assertThat(out.get(0).files()).containsExactly(F1, F2, F3);
            assertThat(out.get(0).kind()).isEqualTo(WeirCommittable.Kind.APPEND);

            // Nothing written: nothing to commit.
            send(harness, 0, 2);
            send(harness, 1, 2);
            harness.prepareSnapshotPreBarrier(2);
            assertThat(committables(harness)).hasSize(1);
        }
    }

    @Test
    void resultsOfAnAbortedCheckpointJoinTheNextOne() throws Exception {
        try (var harness = harness(CommitPlan.append(), true, null)) {
            send(harness, 0, 3, F1); // checkpoint 3 aborted before the barrier got here
            send(harness, 0, 4, F2);
            harness.prepareSnapshotPreBarrier(4);
            List<WeirCommittable> out = committables(harness);
            assertThat(out).hasSize(1);
            assertThat(out.get(0).checkpointId()).isEqualTo(4);
            assertThat(out.get(0).files()).containsExactly(F1, F2);
        }
    }

    /** Flink 1.20 and 2.3 tag a writer's final results with its last checkpoint id + 1. */
    @Test
    void endOfInputCommitsAfterTheLastCheckpoint() throws Exception {
        try (var harness = harness(CommitPlan.append(), true, null)) {
            send(harness, 0, 5, F1);
            harness.prepareSnapshotPreBarrier(5);
            send(harness, 0, 6, F2); // end of input of subtask 0
            send(harness, 1, 6, F3);
            harness.endInput();
            List<WeirCommittable> out = committables(harness);
            assertThat(out).extracting(WeirCommittable::checkpointId).containsExactly(5L, 6L);
            assertThat(out.get(1).files()).containsExactly(F2, F3);
        }
        // Batch: no checkpoint at all.
        try (var harness = harness(CommitPlan.append(), false, null)) {
            send(harness, 0, 1, F1);
            harness.endInput();
            assertThat(committables(harness))
                    .extracting(WeirCommittable::checkpointId)
                    .containsExactly(1L);
        }
    }

    @Test
    void writerIdIsRestoredFromStateAndNewWithoutState() throws Exception {
        OperatorSubtaskState state;
        String id;
        try (var harness = harness(CommitPlan.append(), true, null)) {
            send(harness, 0, 1, F1);
            harness.prepareSnapshotPreBarrier(1);
            id = committables(harness).get(0).writerId();
            state = harness.snapshot(1, 1);
        }
        assertThat(id).startsWith("user-").matches("user-[0-9a-f]{32}-[0-9a-f]{32}-[0-9a-f]{8}");
        try (var harness = harness(CommitPlan.append(), true, state)) {
            send(harness, 0, 2, F2);
            harness.prepareSnapshotPreBarrier(2);
            assertThat(committables(harness).get(0).writerId()).isEqualTo(id);
        }
        try (var harness = harness(CommitPlan.append(), true, null)) {
            send(harness, 0, 1, F2);
            harness.prepareSnapshotPreBarrier(1);
            assertThat(committables(harness).get(0).writerId()).isNotEqualTo(id);
        }
        // Without checkpoints: deterministic, no random suffix.
        try (var harness = harness(CommitPlan.append(), false, null)) {
            send(harness, 0, 1, F2);
            harness.endInput();
            assertThat(committables(harness).get(0).writerId())
                    .matches("user-[0-9a-f]{32}-[0-9a-f]{32}");
        }
    }

    @Test
    void overwriteIsRefusedAtACheckpoint() throws Exception {
        try (var harness = harness(CommitPlan.overwrite(true, null), true, null)) {
            send(harness, 0, 1, F1);
            assertThatThrownBy(() -> harness.prepareSnapshotPreBarrier(1))
                    .hasMessageContaining("batch execution mode only");
        }
        try (var harness = harness(CommitPlan.overwrite(true, null), false, null)) {
            send(harness, 0, 1, F1, F3);
            harness.endInput();
            assertThat(committables(harness).get(0).overwritten())
                    .containsExactly(Partition.of("a"), Partition.of("b"));
        }
    }
}
