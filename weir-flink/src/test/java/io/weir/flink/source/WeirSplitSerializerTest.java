package io.weir.flink.source;

import io.weir.ChangeTask;
import io.weir.ColumnStats;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.ScanTask;

import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Round trips of splits and enumerator states through their versioned serializers. */
class WeirSplitSerializerTest {
    private static final FileGroupId GROUP =
            new FileGroupId(new Partition(Arrays.asList("2024-01-01", null, "ünï/cødé")), 3);

    @Test
    void snapshotSplitsRoundTrip() throws IOException {
        WeirSplit split =
                WeirSplit.of(new ScanTask(42, GROUP, List.of(base(GROUP, 7), log(GROUP, 9))));
        assertThat(roundTrip(split)).isEqualTo(split);
        WeirSplit resumed = split.withRecordsToSkip(1234);
        WeirSplit back = roundTrip(resumed);
        assertThat(back).isEqualTo(resumed);
        assertThat(back.recordsToSkip()).isEqualTo(1234);
        assertThat(back.splitId()).isEqualTo(split.splitId());
        assertThat(back.commitOrder()).isEqualTo(42);
    }

    @Test
    void changeSplitsRoundTrip() throws IOException {
        FileGroupId unpartitioned = new FileGroupId(Partition.UNPARTITIONED, 0);
        WeirSplit split =
                WeirSplit.of(
                        new ChangeTask(
                                5,
                                9,
                                unpartitioned,
                                List.of(base(unpartitioned, 4)),
                                List.of(base(unpartitioned, 4), log(unpartitioned, 8))));
        assertThat(roundTrip(split)).isEqualTo(split);
        assertThat(roundTrip(split.withRecordsToSkip(7)).recordsToSkip()).isEqualTo(7);
        WeirSplit empty = WeirSplit.of(new ChangeTask(0, 1, GROUP, List.of(), List.of()));
        assertThat(roundTrip(empty)).isEqualTo(empty);
        assertThat(split.splitId()).isNotEqualTo(empty.splitId());
        assertThat(split.commitOrder()).isEqualTo(9);
    }

    @Test
    void longFileListsRoundTrip() throws IOException {
        List<DataFile> files = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            files.add(log(GROUP, i));
        }
        WeirSplit split = WeirSplit.of(new ScanTask(1, GROUP, files));
        assertThat(roundTrip(split)).isEqualTo(split);
    }

    @Test
    void enumeratorStatesRoundTrip() throws IOException {
        WeirEnumeratorStateSerializer serializer = WeirEnumeratorStateSerializer.INSTANCE;
        WeirEnumeratorState state =
                new WeirEnumeratorState(
                        17,
                        List.of(
                                WeirSplit.of(new ScanTask(3, GROUP, List.of(log(GROUP, 1)))),
                                WeirSplit.of(
                                        new ChangeTask(
                                                3, 17, GROUP, List.of(), List.of(log(GROUP, 2))))));
        byte[] bytes = SimpleVersionedSerialization.writeVersionAndSerialize(serializer, state);
        WeirEnumeratorState back =
                SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, bytes);
        assertThat(back).isEqualTo(state);
        assertThat(back.started()).isTrue();

        byte[] initial = serializer.serialize(WeirEnumeratorState.INITIAL);
        assertThat(serializer.deserialize(serializer.getVersion(), initial))
                .isEqualTo(WeirEnumeratorState.INITIAL);
        assertThat(WeirEnumeratorState.INITIAL.started()).isFalse();

        WeirEnumeratorState leased =
                new WeirEnumeratorState(17, state.pending(), "orders-source-1a2b3c4d", 3);
        assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(leased)))
                .isEqualTo(leased);
        // A version 1 checkpoint (no lease fields) still restores.
        byte[] v2 = serializer.serialize(state);
        byte[] v1 = java.util.Arrays.copyOf(v2, v2.length - 1 - 8);
        assertThat(serializer.deserialize(1, v1)).isEqualTo(state);
    }

    @Test
    void unknownVersionsFailClearly() {
        assertThatThrownBy(() -> WeirSplitSerializer.INSTANCE.deserialize(99, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 99");
        assertThatThrownBy(() -> WeirEnumeratorStateSerializer.INSTANCE.deserialize(3, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3");
    }

    private static WeirSplit roundTrip(WeirSplit split) throws IOException {
        byte[] bytes =
                SimpleVersionedSerialization.writeVersionAndSerialize(
                        WeirSplitSerializer.INSTANCE, split);
        return SimpleVersionedSerialization.readVersionAndDeSerialize(
                WeirSplitSerializer.INSTANCE, bytes);
    }

    private static DataFile base(FileGroupId g, long sequence) {
        return new DataFile(
                "p/bucket-" + g.bucket() + "/base-" + sequence + ".parquet",
                FileKind.BASE,
                g.partition(),
                g.bucket(),
                100,
                4096,
                sequence,
                0,
                List.of("1", "a"),
                List.of("99", "z"),
                Map.of(0, new ColumnStats("1", "99", 0), 1, new ColumnStats(null, null, 100)));
    }

    private static DataFile log(FileGroupId g, long sequence) {
        return new DataFile(
                "p/bucket-" + g.bucket() + "/log-" + sequence + ".wlog",
                FileKind.LOG,
                g.partition(),
                g.bucket(),
                10,
                512,
                sequence,
                0,
                List.of("5"),
                List.of("7"),
                null);
    }
}
