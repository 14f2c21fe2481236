package io.weir.flink.sql;

import io.weir.Table;
import io.weir.Tables;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Time partitions through Flink SQL, with the {@code weir} catalog: the DDL declares the derived
 * column and the {@code partition.time.*} options; an INSERT that leaves the derived column out (or
 * gives a wrong value) gets it from the timestamp, in the table's zone; queries filter on the
 * derived column and on the timestamp; the job drops expired partitions after its commit.
 */
class TimePartitionSqlTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

    @TempDir Path warehouse;
    private TableEnvironment env;

    @BeforeEach
    void setUp() {
        StreamExecutionEnvironment streamEnv = StreamExecutionEnvironment.getExecutionEnvironment();
        streamEnv.setParallelism(2);
        env = StreamTableEnvironment.create(streamEnv, EnvironmentSettings.inBatchMode());
        env.executeSql(
                "CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '" + warehouse + "')");
        env.executeSql("USE CATALOG c");
    }

    @Test
    void rowsArePartitionedByTheirLocalDayAndQueriesPruneByDayAndTime() throws Exception {
        env.executeSql(
                "CREATE TABLE events (id BIGINT, ts TIMESTAMP_LTZ(3), v STRING, dt DATE,"
                        + " PRIMARY KEY (id, ts) NOT ENFORCED) PARTITIONED BY (dt) WITH ("
                        + " 'partition.time.column' = 'ts', 'partition.time.zone' = 'Asia/Shanghai',"
                        + " 'bucket' = '2')");
        long lateOnMay1 = Instant.parse("2024-05-01T15:30:00Z").toEpochMilli(); // 23:30 local
        long earlyOnMay2 = Instant.parse("2024-05-01T16:30:00Z").toEpochMilli(); // 00:30 local
        long may3 = Instant.parse("2024-05-03T01:00:00Z").toEpochMilli();
        env.executeSql(
                        "INSERT INTO events (id, ts, v) VALUES"
                                + ltz(1, lateOnMay1, "a")
                                + ","
                                + ltz(2, earlyOnMay2, "b")
                                + ","
                                + ltz(3, may3, "c"))
                .await();
        // A wrong dt is replaced by the day of ts.
        env.executeSql(
                        "INSERT INTO events VALUES (4, TO_TIMESTAMP_LTZ("
                                + may3
                                + ", 3), 'd', DATE '1999-12-31')")
                .await();

        assertThat(rows("SELECT id, v, dt FROM events"))
                .containsExactlyInAnyOrder(
                        "+I[1, a, 2024-05-01]",
                        "+I[2, b, 2024-05-02]",
                        "+I[3, c, 2024-05-03]",
                        "+I[4, d, 2024-05-03]");
        assertThat(rows("SHOW PARTITIONS events"))
                .containsExactly("+I[dt=2024-05-01]", "+I[dt=2024-05-02]", "+I[dt=2024-05-03]");
        assertThat(rows("SELECT id FROM events WHERE dt = DATE '2024-05-02'"))
                .containsExactly("+I[2]");
        assertThat(
                        rows(
                                "SELECT id FROM events WHERE ts >= TO_TIMESTAMP_LTZ("
                                        + earlyOnMay2
                                        + ", 3) AND ts < TO_TIMESTAMP_LTZ("
                                        + may3
                                        + ", 3)"))
                .containsExactly("+I[2]");
        // The same filter in the core plans only the partition of 2 May.
        Table table = Tables.load(warehouse.resolve("default.db").resolve("events").toString());
        assertThat(
                        table.newScan()
                                .filter(
                                        io.weir.expressions.Expressions.and(
                                                io.weir.expressions.Expressions.greaterThanOrEqual(
                                                        "ts", Instant.ofEpochMilli(earlyOnMay2)),
                                                io.weir.expressions.Expressions.lessThan(
                                                        "ts", Instant.ofEpochMilli(may3))))
                                .plan())
                .allSatisfy(
                        t ->
                                assertThat(t.fileGroup().partition().values())
                                        .containsExactly("2024-05-02"))
                .isNotEmpty();
    }

    @Test
    void theIngestionJobDropsExpiredPartitions() throws Exception {
        env.executeSql(
                "CREATE TABLE clicks (url STRING, ts TIMESTAMP_LTZ(3), dt DATE, hr INT)"
                        + " PARTITIONED BY (dt, hr) WITH ('partition.time.column' = 'ts',"
                        + " 'partition.time.granularity' = 'hour', 'partition.time.zone' ="
                        + " 'Asia/Shanghai', 'partition.expiration-time' = '2 d')");
        long now = System.currentTimeMillis();
        long old = now - 5 * 86_400_000L;
        env.executeSql(
                        "INSERT INTO clicks (url, ts) VALUES ('old', TO_TIMESTAMP_LTZ("
                                + old
                                + ", 3)), ('new', TO_TIMESTAMP_LTZ("
                                + now
                                + ", 3))")
                .await();
        // The job's maintenance (after its commit) dropped the partition of 5 days ago.
        assertThat(rows("SELECT url, dt FROM clicks"))
                .containsExactly(
                        "+I[new, "
                                + LocalDate.ofInstant(Instant.ofEpochMilli(now), SHANGHAI)
                                + "]");
        assertThat(rows("SELECT commit_kind FROM `clicks$commits` ORDER BY commit_id"))
                .containsExactly("+I[APPEND]", "+I[CLEAN]");
    }

    private static String ltz(long id, long millis, String v) {
        return " (" + id + ", TO_TIMESTAMP_LTZ(" + millis + ", 3), '" + v + "')";
    }

    private List<String> rows(String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }
}
