package io.weir.flink.source;

import io.weir.exceptions.ValidationException;
import io.weir.expressions.Expression;
import io.weir.expressions.Expressions;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bounded reads through the DataStream API, each checked against the core API's own scan of the
 * same table (an independent path) and, where it applies, against the model.
 */
class WeirSourceBatchTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    private TestTable t;
    private long[] commits;

    /** Four commits: two appends, a compaction, an append with updates and deletes. */
    @BeforeEach
    void writeTable() throws InterruptedException {
        t = new TestTable(dir);
        Random random = new Random(7);
        commits = new long[4];
        t.randomChanges(random, 300, 150);
        commits[0] = t.commit();
        Thread.sleep(5); // distinct commit timestamps for time travel
        t.randomChanges(random, 200, 150);
        commits[1] = t.commit();
        Thread.sleep(5);
        commits[2] = t.compact();
        Thread.sleep(5);
        t.randomChanges(random, 200, 200);
        commits[3] = t.commit();
        assertThat(commits).containsExactly(1, 2, 3, 4);
    }

    @Test
    void readsTheLatestSnapshot() throws Exception {
        List<List<Object>> rows = read(WeirSource.builder().location(t.location).build(), 2);
        assertThat(rows).containsExactlyInAnyOrderElementsOf(t.modelRows());
        assertThat(rows)
                .containsExactlyInAnyOrderElementsOf(
                        TestTable.rows(t.table.newScan().rows(), t.rowType()));
    }

    @Test
    void readsASnapshotById() throws Exception {
        List<List<Object>> rows =
                read(WeirSource.builder().location(t.location).snapshotId(2).build(), 2);
        List<List<Object>> expected =
                TestTable.rows(t.table.newScan().useSnapshot(2).rows(), t.rowType());
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(expected)
                .isNotEqualTo(TestTable.rows(t.table.newScan().rows(), t.rowType()))
                .isNotEmpty();
    }

    @Test
    void travelsInTime() throws Exception {
        long at = t.table.commit(2).timestampMillis();
        List<List<Object>> rows =
                read(WeirSource.builder().location(t.location).timestamp(at).build(), 2);
        assertThat(rows)
                .containsExactlyInAnyOrderElementsOf(
                        TestTable.rows(t.table.newScan().useSnapshot(2).rows(), t.rowType()));
        // Just before commit 2: commit 1.
        List<List<Object>> before =
                read(WeirSource.builder().location(t.location).timestamp(at - 1).build(), 1);
        assertThat(before)
                .containsExactlyInAnyOrderElementsOf(
                        TestTable.rows(t.table.newScan().useSnapshot(1).rows(), t.rowType()));
    }

    @Test
    void projectsColumns() throws Exception {
        WeirSource source = WeirSource.builder().location(t.location).select("v", "id").build();
        assertThat(source.rowType().getFieldNames()).containsExactly("v", "id");
        List<List<Object>> expected = new ArrayList<>();
        for (List<Object> r : t.model.values()) {
            expected.add(List.of("+I", r.get(3), r.get(0)));
        }
        assertThat(read(source, 2)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void filtersRows() throws Exception {
        Expression filter =
                Expressions.and(
                        Expressions.greaterThanOrEqual("v", 50),
                        Expressions.or(
                                Expressions.equal("dt", TestTable.DAYS[0]),
                                Expressions.startsWith("name", "n1")));
        WeirSource source =
                WeirSource.builder().location(t.location).filter(filter).select("id", "v").build();
        List<List<Object>> rows = read(source, 2);
        List<List<Object>> expected = new ArrayList<>();
        for (List<Object> r : t.model.values()) {
            int v = (Integer) r.get(3);
            if (v >= 50
                    && (r.get(1).equals(TestTable.DAYS[0])
                            || ((String) r.get(2)).startsWith("n1"))) {
                expected.add(List.of("+I", r.get(0), v));
            }
        }
        assertThat(expected).isNotEmpty().hasSizeLessThan(t.model.size());
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
        io.weir.types.RowType projected = t.rowType().project(new int[] {0, 3});
        assertThat(rows)
                .containsExactlyInAnyOrderElementsOf(
                        TestTable.rows(
                                t.table.newScan().select("id", "v").filter(filter).rows(),
                                projected));
    }

    @Test
    void limitsRows() throws Exception {
        List<List<Object>> rows =
                read(WeirSource.builder().location(t.location).limit(5).build(), 1);
        assertThat(rows).hasSize(5);
        assertThat(t.modelRows()).containsAll(rows);
        assertThat(read(WeirSource.builder().location(t.location).limit(0).build(), 1)).isEmpty();
    }

    @Test
    void readsChangesBetweenTwoCommits() throws Exception {
        for (long[] range : new long[][] {{1, 4}, {0, 2}, {2, 3}, {3, 4}}) {
            WeirSource source =
                    WeirSource.builder()
                            .location(t.location)
                            .incrementalBetween(range[0], range[1])
                            .build();
            List<List<Object>> expected =
                    TestTable.rows(
                            t.table.newIncrementalScan().between(range[0], range[1]).rows(),
                            t.rowType());
            assertThat(read(source, 2))
                    .as("changes (%s, %s]", range[0], range[1])
                    .containsExactlyInAnyOrderElementsOf(expected);
            if (range[0] == 2) {
                assertThat(expected).as("a compaction changes nothing").isEmpty();
            } else {
                assertThat(expected).isNotEmpty();
            }
        }
    }

    @Test
    void readsChangesFromACommitInBatch() throws Exception {
        WeirSource source =
                WeirSource.builder()
                        .location(t.location)
                        .startMode(StartMode.FROM_SNAPSHOT)
                        .snapshotId(2)
                        .build();
        assertThat(read(source, 2))
                .containsExactlyInAnyOrderElementsOf(
                        TestTable.rows(
                                t.table.newIncrementalScan().between(1, 4).rows(), t.rowType()));
    }

    @Test
    void rejectsInvalidOptions() {
        assertThatThrownBy(
                        () ->
                                WeirSource.builder()
                                        .location(t.location)
                                        .snapshotId(1)
                                        .timestamp(5)
                                        .build())
                .hasMessageContaining("choose one");
        assertThatThrownBy(
                        () ->
                                WeirSource.builder()
                                        .location(t.location)
                                        .startMode(StartMode.FROM_SNAPSHOT)
                                        .build())
                .hasMessageContaining("set a snapshot id");
        assertThatThrownBy(() -> WeirSource.builder().location(t.location).select("nope").build())
                .hasMessageContaining("nope");
        assertThatThrownBy(
                        () ->
                                WeirSource.builder()
                                        .location(t.location)
                                        .filter(Expressions.equal("v", "x"))
                                        .build())
                .hasMessageContaining("v");
        assertThatThrownBy(
                        () ->
                                WeirSource.builder()
                                        .location(t.location)
                                        .streaming(true)
                                        .countRows()
                                        .build())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot count the rows of table "
                                + t.location
                                + " in a streaming, incremental or limited read: counting is for"
                                + " bounded snapshot reads");
    }

    private static List<List<Object>> read(WeirSource source, int parallelism) throws Exception {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(parallelism);
        List<List<Object>> rows = new ArrayList<>();
        try (CloseableIterator<RowData> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "weir")
                        .executeAndCollect()) {
            it.forEachRemaining(r -> rows.add(TestTable.values(r, source.rowType())));
        }
        return rows;
    }
}
