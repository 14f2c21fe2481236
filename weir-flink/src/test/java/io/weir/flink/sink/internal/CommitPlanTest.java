package io.weir.flink.sink.internal;

import io.weir.DataFile;
import io.weir.Partition;
import io.weir.flink.sink.TestFiles;
import io.weir.flink.sink.WeirCommittable;
import io.weir.flink.sink.WeirCommittable.Kind;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CommitPlanTest {
    private static final DataFile A1 = TestFiles.log("a1", Partition.of("a"), 0, 5);
    private static final DataFile A2 = TestFiles.log("a2", Partition.of("a"), 1, 5);
    private static final DataFile B1 = TestFiles.log("b1", Partition.of("b"), 0, 5);

    @Test
    void appendsOnlyWhenThereAreFiles() {
        CommitPlan plan = CommitPlan.append();
        assertThat(plan.isOverwrite()).isFalse();
        assertThat(plan.committable("w", 3, List.of())).isNull();
        assertThat(plan.committable("w", 3, List.of(A1, B1)))
                .isEqualTo(WeirCommittable.append("w", 3, List.of(A1, B1)));
    }

    @Test
    void overwriteOfAnUnpartitionedTableReplacesItEvenWithoutRows() {
        CommitPlan plan = CommitPlan.overwrite(false, null);
        assertThat(plan.isOverwrite()).isTrue();
        assertThat(plan.committable("w", 1, List.of()))
                .isEqualTo(new WeirCommittable("w", 1, Kind.OVERWRITE_ALL, List.of(), List.of()));
    }

    @Test
    void staticOverwriteReplacesThePartitionEvenWithoutRows() {
        CommitPlan plan = CommitPlan.overwrite(true, List.of("a"));
        assertThat(plan.committable("w", 1, List.of()))
                .isEqualTo(
                        new WeirCommittable(
                                "w",
                                1,
                                Kind.OVERWRITE_PARTITIONS,
                                List.of(Partition.of("a")),
                                List.of()));
        assertThat(plan.committable("w", 1, List.of(A1, A2)).overwritten())
                .containsExactly(Partition.of("a"));
    }

    @Test
    void dynamicOverwriteReplacesExactlyThePartitionsWithRows() {
        CommitPlan plan = CommitPlan.overwrite(true, null);
        assertThat(plan.committable("w", 1, List.of())).isNull();
        WeirCommittable c = plan.committable("w", 1, List.of(B1, A1, A2));
        assertThat(c.kind()).isEqualTo(Kind.OVERWRITE_PARTITIONS);
        assertThat(c.overwritten()).containsExactly(Partition.of("a"), Partition.of("b"));
        assertThat(c.files()).containsExactly(B1, A1, A2);
    }
}
