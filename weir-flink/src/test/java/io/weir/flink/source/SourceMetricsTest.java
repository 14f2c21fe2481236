package io.weir.flink.source;

import io.weir.Tables;
import io.weir.flink.metrics.CollectingReporter;
import io.weir.flink.metrics.CollectingReporter.Seen;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * FLIP-33's standard source metrics, as a reporter in the MiniCluster sees them, against the rows
 * read and the table's commits: numRecordsIn (Flink counts it), pendingRecords, the fetch lag
 * (commit to fetch) and the enumerator's unassignedSplits.
 */
class SourceMetricsTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setConfiguration(CollectingReporter.configure(new Configuration()))
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @Test
    void boundedReadReportsItsRecordsLagAndNothingPending() throws Exception {
        CollectingReporter.clear();
        TestTable t = new TestTable(dir);
        Random random = new Random(3);
        t.randomChanges(random, 400, 300);
        t.commit();
        t.randomChanges(random, 300, 300);
        long last = t.commit();
        long committedAt = Tables.load(t.location).commit(last).timestampMillis();

        long start = System.currentTimeMillis();
        WeirSource source = WeirSource.builder().location(t.location).build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(2);
        List<RowData> rows = new ArrayList<>();
        try (CloseableIterator<RowData> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "weir-source")
                        .executeAndCollect()) {
            it.forEachRemaining(rows::add);
        }
        assertThat(rows).hasSize(t.modelRows().size());

        List<Seen> in = sourceReaders("numRecordsIn");
        assertThat(in).extracting(Seen::subtask).containsExactlyInAnyOrder(0, 1);
        assertThat(in.stream().mapToLong(Seen::longValue).sum()).isEqualTo(rows.size());

        assertThat(sourceReaders("pendingRecords"))
                .hasSize(2)
                .allSatisfy(s -> assertThat(s.longValue()).isZero());

        List<Seen> lags = sourceReaders("currentFetchEventTimeLag");
        assertThat(lags).hasSize(2);
        for (Seen lag : lags) {
            // Fetched after the job started and before the value was read; from the last commit.
            assertThat(lag.longValue())
                    .isBetween(start - committedAt, lag.readAtMillis() - committedAt);
        }

        // Flink's own: Weir's rows carry no record timestamp, so it stays "undefined" (docs).
        assertThat(sourceReaders("currentEmitEventTimeLag"))
                .hasSize(2)
                .allSatisfy(s -> assertThat(s.longValue()).isEqualTo(-1));

        List<Seen> unassigned = CollectingReporter.named("unassignedSplits");
        assertThat(unassigned).singleElement().satisfies(s -> assertThat(s.longValue()).isZero());
    }

    /** The metrics of this name of the source reader operator's subtasks. */
    private static List<Seen> sourceReaders(String name) {
        return CollectingReporter.named(name).stream()
                .filter(s -> s.operator().contains("weir-source"))
                .filter(s -> s.subtask() >= 0)
                .toList();
    }
}
