package io.weir.bench.e2e;

import io.weir.bench.e2e.job.CompactionHistory;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineChartTest {
    private static CompactionHistory.Point at(double seconds, long rows) {
        return new CompactionHistory.Point(seconds, rows, 0, 0, 0, 0);
    }

    @Test
    void throughputIsTheRowsCommittedOverAtLeastTheWindow() {
        List<CompactionHistory.Point> t =
                List.of(at(0, 0), at(2, 100), at(5, 400), at(12, 1_100), at(14, 1_300));
        assertThat(TimelineChart.rateAt(t, 0)).isNaN();
        assertThat(TimelineChart.rateAt(t, 1)).isEqualTo(50.0); // 100 rows in 2 s
        assertThat(TimelineChart.rateAt(t, 2)).isEqualTo(80.0); // back to t=0: 400 / 5
        assertThat(TimelineChart.rateAt(t, 3)).isEqualTo(1_000.0 / 10); // from t=2
        assertThat(TimelineChart.rateAt(t, 4)).isEqualTo(1_200.0 / 12); // from t=2
    }
}
