package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.SinkKind;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.weir.bench.e2e.Results.failed;
import static io.weir.bench.e2e.Results.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SinkMediansTest {
    @Test
    void mediansOfRepeatedRunsLeaveFailuresOut() {
        List<SinkMedians> medians =
                SinkMedians.of(
                        List.of(
                                run(SinkKind.BLACKHOLE, Workload.SCHEMA1, 1_000_000, 2, 4),
                                run(SinkKind.WEIR, Workload.SCHEMA1, 1_000_000, 4, 6),
                                run(SinkKind.BLACKHOLE, Workload.SCHEMA1, 1_000_000, 4, 6),
                                run(SinkKind.WEIR, Workload.SCHEMA1, 1_000_000, 5, 7),
                                failed(SinkKind.WEIR, Workload.SCHEMA1, 1_000_000)));
        assertThat(medians).hasSize(2);
        SinkMedians blackhole = medians.get(0);
        SinkMedians weir = medians.get(1);
        assertThat(blackhole.seconds()).isEqualTo(3);
        assertThat(blackhole.rowsPerSecond()).isEqualTo((500_000 + 250_000) / 2.0);
        assertThat(blackhole.verified()).isNull();
        assertThat(weir.runs()).isEqualTo(2);
        assertThat(weir.failed()).isEqualTo(1);
        assertThat(weir.cpuSeconds()).isEqualTo(6.5);
        assertThat(weir.verified()).isFalse(); // a failed run counts as unverified
        assertThat(weir.sinkCpuMicrosPerRow(blackhole)).isCloseTo(1.5, within(1e-9));
        assertThat(weir.shareOf(blackhole)).isCloseTo(225_000 / 375_000.0, within(1e-9));
        // each round's run against the blackhole's of that round; the third round has no ceiling
        assertThat(weir.roundSharesOf(blackhole))
                .containsExactly(250_000 / 500_000.0, 200_000 / 250_000.0);
    }

    @Test
    void aFailedRunLeavesItsRoundWithoutAShare() {
        List<SinkMedians> medians =
                SinkMedians.of(
                        List.of(
                                run(SinkKind.BLACKHOLE, Workload.SCHEMA2, 1_000_000, 2, 4),
                                failed(SinkKind.WEIR, Workload.SCHEMA2, 1_000_000),
                                run(SinkKind.BLACKHOLE, Workload.SCHEMA2, 1_000_000, 4, 6),
                                run(SinkKind.WEIR, Workload.SCHEMA2, 1_000_000, 5, 7)));
        List<Double> shares = medians.get(1).roundSharesOf(medians.get(0));
        assertThat(shares).hasSize(2);
        assertThat(shares.get(0)).isNaN();
        assertThat(shares.get(1)).isEqualTo(200_000 / 250_000.0);
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertThat(SinkMedians.median(new double[] {3, 1, 2})).isEqualTo(2);
        assertThat(SinkMedians.median(new double[] {4, 1})).isEqualTo(2.5);
        assertThat(SinkMedians.median(new double[0])).isNaN();
    }
}
