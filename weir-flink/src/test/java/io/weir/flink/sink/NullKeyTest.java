package io.weir.flink.sink;

import io.weir.Table;
import io.weir.Tables;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A null in a primary key column fails the write with one message naming the column (and, where
 * Weir sees the row, the table), and commits nothing: through the Java API (the row reaches Weir's
 * writer) and through SQL (Flink's NOT NULL check on key columns stops it first).
 */
class NullKeyTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @Test
    void aNullKeyThroughTheJavaApiFailsNamingTableAndColumn() throws Exception {
        Table table = SinkTestTables.create(dir.resolve("t"), SinkTestTables.keyedSchema(), 2);
        WeirSink sink = WeirSink.builder().location(table.location()).build();
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.fromSource(new NumberSequenceSource(0, 9), WatermarkStrategy.noWatermarks(), "seq")
                .map(NullKeyTest::row, sink.inputType())
                .sinkTo(sink);
        assertThatThrownBy(env::execute)
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Cannot write a row with a null primary key to"
                                                        + " table "
                                                        + table.location()
                                                        + ": column 'dt' is null"));
        assertThat(Tables.load(table.location()).currentSnapshot().id())
                .as("nothing committed")
                .isZero();
    }

    @Test
    void aNullKeyThroughSqlFailsNamingTheColumn() {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.executeSql(
                "CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '"
                        + dir.resolve("w").toUri()
                        + "')");
        env.executeSql("CREATE DATABASE c.db");
        env.executeSql(
                "CREATE TABLE c.db.k (id BIGINT, dt STRING, v INT,"
                        + " PRIMARY KEY (id, dt) NOT ENFORCED)");
        for (String values :
                List.of("(CAST(NULL AS BIGINT), 'a', 1)", "(1, CAST(NULL AS STRING), 1)")) {
            String column = values.startsWith("(CAST") ? "id" : "dt";
            assertThatThrownBy(
                            () ->
                                    env.executeSql(
                                                    "INSERT INTO c.db.k VALUES (2, 'b', 2), "
                                                            + values)
                                            .await())
                    .satisfies(
                            e ->
                                    assertThat(messages(e))
                                            .anyMatch(
                                                    m ->
                                                            m.startsWith(
                                                                    "Column '"
                                                                            + column
                                                                            + "' is NOT NULL, however,"
                                                                            + " a null value is being"
                                                                            + " written into it.")));
        }
        assertThat(Tables.load(dir.resolve("w/db.db/k").toString()).currentSnapshot().id())
                .as("nothing committed")
                .isZero();
    }

    /** Row 5 has a null partition and key column 'dt'. */
    private static RowData row(Long seq) {
        GenericRowData row =
                GenericRowData.of(
                        seq,
                        seq == 5 ? null : StringData.fromString("2024-05-01"),
                        seq,
                        StringData.fromString("n"));
        return row;
    }

    private static List<String> messages(Throwable e) {
        List<String> out = new ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause()) {
            out.add(String.valueOf(t.getMessage()));
        }
        return out;
    }
}
