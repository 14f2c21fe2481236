package io.weir.flink.table;

import io.weir.Tables;
import io.weir.flink.source.TestTable;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link WeirTableSource} through Flink SQL, with the planner's push-downs. */
class WeirTableSourceTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    private TestTable t;

    @BeforeEach
    void writeTable() {
        t = new TestTable(dir);
        Random random = new Random(3);
        t.randomChanges(random, 200, 100);
        t.commit();
        t.randomChanges(random, 100, 100);
        t.commit();
        t.compact();
        t.randomChanges(random, 100, 120);
        t.commit();
    }

    @Test
    void pushesProjectionFilterAndLimitInBatch() throws Exception {
        TableEnvironment env = env(RuntimeExecutionMode.BATCH);
        String query = "SELECT v, id FROM t WHERE v >= 50 AND name LIKE 'n1%'";
        String plan = env.explainSql(query);
        // The filters stay with the planner too, so the scan keeps the column they need.
        assertThat(plan).contains("project=[id, name, v]").contains("filter=[and(>=(v, 50), LIKE(");
        List<List<Object>> expected = new ArrayList<>();
        for (List<Object> r : t.model.values()) {
            if ((Integer) r.get(3) >= 50 && ((String) r.get(2)).startsWith("n1")) {
                expected.add(List.of("+I", r.get(3), r.get(0)));
            }
        }
        assertThat(expected).isNotEmpty();
        assertThat(rows(env, query)).containsExactlyInAnyOrderElementsOf(expected);

        assertThat(env.explainSql("SELECT * FROM t LIMIT 3")).contains("limit=[3]");
        List<List<Object>> limited = rows(env, "SELECT * FROM t LIMIT 3");
        assertThat(limited).hasSize(3);
        assertThat(t.modelRows()).containsAll(limited);
    }

    @Test
    void countsRowsInTheSourceInBatch() throws Exception {
        TableEnvironment env = env(RuntimeExecutionMode.BATCH);
        // The local COUNT(*) runs in the source: a row per split, summed by the planner.
        assertThat(env.explainSql("SELECT COUNT(*) FROM t"))
                .contains("aggregates=[grouping=[], aggFunctions=[Count1AggFunction()]]");
        assertThat(rows(env, "SELECT COUNT(*) FROM t"))
                .containsExactly(List.of("+I", (long) t.model.size()));
        int atSnapshot2 =
                TestTable.rows(t.table.newScan().useSnapshot(2).rows(), t.rowType()).size();
        assertThat(atSnapshot2).isNotEqualTo(t.model.size());
        assertThat(rows(env, "SELECT COUNT(*) FROM t /*+ OPTIONS('scan.snapshot-id'='2') */"))
                .containsExactly(List.of("+I", (long) atSnapshot2));

        // Compacted: every group is counted from its files' metadata.
        t.compact();
        assertThat(rows(env, "SELECT COUNT(*) FROM t"))
                .containsExactly(List.of("+I", (long) t.model.size()));

        // A filter or a grouping is not pushed: the planner counts the rows read.
        String filtered = "SELECT COUNT(*) FROM t WHERE v >= 50";
        assertThat(env.explainSql(filtered)).doesNotContain("aggregates=");
        long expected = t.model.values().stream().filter(r -> (Integer) r.get(3) >= 50).count();
        assertThat(rows(env, filtered)).containsExactly(List.of("+I", expected));
        assertThat(env.explainSql("SELECT dt, COUNT(*) FROM t GROUP BY dt"))
                .doesNotContain("aggregates=");

        // An empty table counts 0.
        env.executeSql(
                "CREATE TABLE empty_t (id BIGINT, dt STRING, name STRING, v INT) WITH ("
                        + "'connector' = 'weir-source-test', 'path' = '"
                        + new TestTable(dir.resolve("empty")).location
                        + "')");
        assertThat(rows(env, "SELECT COUNT(*) FROM empty_t")).containsExactly(List.of("+I", 0L));
    }

    @Test
    void travelsInTimeWithAHint() throws Exception {
        TableEnvironment env = env(RuntimeExecutionMode.BATCH);
        assertThat(rows(env, "SELECT * FROM t /*+ OPTIONS('scan.snapshot-id'='2') */"))
                .containsExactlyInAnyOrderElementsOf(
                        TestTable.rows(t.table.newScan().useSnapshot(2).rows(), t.rowType()));
        assertThat(rows(env, "SELECT * FROM t")).containsExactlyInAnyOrderElementsOf(t.modelRows());
    }

    @Test
    void readsAChangeRangeAsABoundedChangelogInStreamingMode() throws Exception {
        TableEnvironment env = env(RuntimeExecutionMode.STREAMING);
        List<List<Object>> expected =
                TestTable.rows(t.table.newIncrementalScan().between(1, 4).rows(), t.rowType());
        assertThat(expected).extracting(r -> r.get(0)).contains("+I", "-U", "+U", "-D");
        assertThat(rows(env, "SELECT * FROM t /*+ OPTIONS('scan.incremental.between'='1,4') */"))
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void flinksBatchPlannerRejectsChangeReads() {
        TableEnvironment env = env(RuntimeExecutionMode.BATCH);
        assertThatThrownBy(
                        () ->
                                rows(
                                        env,
                                        "SELECT * FROM t /*+"
                                                + " OPTIONS('scan.incremental.between'='1,4') */"))
                .hasMessageContaining("only possible for INSERT-only table sources");
    }

    @Test
    void changelogModeFollowsTheRead() {
        var table = Tables.load(t.location);
        assertThat(new WeirTableSource(t.location, table, Map.of(), false).getChangelogMode())
                .isEqualTo(ChangelogMode.insertOnly());
        assertThat(new WeirTableSource(t.location, table, Map.of(), true).getChangelogMode())
                .isEqualTo(ChangelogMode.all());
        assertThat(
                        new WeirTableSource(
                                        t.location,
                                        table,
                                        Map.of("scan.incremental.between", "1,2"),
                                        false)
                                .getChangelogMode())
                .isEqualTo(ChangelogMode.all());
    }

    @Test
    void rejectsInvalidOptionsWhilePlanning() {
        TableEnvironment env = env(RuntimeExecutionMode.BATCH);
        assertThatThrownBy(
                        () ->
                                env.explainSql(
                                        "SELECT * FROM t /*+"
                                                + " OPTIONS('scan.incremental.between'='x') */"))
                .hasStackTraceContaining("scan.incremental.between");
        assertThatThrownBy(
                        () ->
                                env.explainSql(
                                        "SELECT * FROM t /*+ OPTIONS('scan.mode'='sometimes') */"))
                .hasStackTraceContaining("scan.mode");
        assertThatThrownBy(
                        () ->
                                rows(
                                        env,
                                        "SELECT * FROM t /*+ OPTIONS('scan.snapshot-id'='1',"
                                                + " 'scan.timestamp'='5') */"))
                .hasStackTraceContaining("choose one");
    }

    private TableEnvironment env(RuntimeExecutionMode mode) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(mode);
        env.setParallelism(2);
        EnvironmentSettings settings =
                mode == RuntimeExecutionMode.BATCH
                        ? EnvironmentSettings.inBatchMode()
                        : EnvironmentSettings.inStreamingMode();
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env, settings);
        tEnv.executeSql(
                "CREATE TABLE t (id BIGINT, dt STRING, name STRING, v INT) WITH ("
                        + "'connector' = 'weir-source-test', 'path' = '"
                        + t.location
                        + "')");
        return tEnv;
    }

    private static List<List<Object>> rows(TableEnvironment env, String query) throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            while (it.hasNext()) {
                Row row = it.next();
                List<Object> values = new ArrayList<>();
                values.add(row.getKind().shortString());
                for (int i = 0; i < row.getArity(); i++) {
                    values.add(row.getField(i));
                }
                rows.add(values);
            }
        }
        return rows;
    }
}
