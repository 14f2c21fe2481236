package io.weir.flink.sql;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Weir through Flink SQL only, with the real {@code weir} catalog and connector: create, insert,
 * update and delete (from a changelog), overwrite, time travel, incremental change reads, system
 * tables, and the errors users hit.
 */
class SqlEndToEndTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(2)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path warehouse;
    private StreamExecutionEnvironment streamEnv;
    private StreamTableEnvironment streamingEnv;
    private TableEnvironment batchEnv;

    /** The environment statements run in: Flink fixes the runtime mode per environment. */
    private TableEnvironment env;

    @BeforeEach
    void setUp() {
        streamEnv = StreamExecutionEnvironment.getExecutionEnvironment();
        streamEnv.setParallelism(2);
        streamEnv.enableCheckpointing(200);
        streamingEnv = StreamTableEnvironment.create(streamEnv);
        // Batch jobs take one slot, so they can run while a streaming read holds two.
        StreamExecutionEnvironment batchStreamEnv =
                StreamExecutionEnvironment.getExecutionEnvironment();
        batchStreamEnv.setParallelism(1);
        batchEnv = StreamTableEnvironment.create(batchStreamEnv, EnvironmentSettings.inBatchMode());
        for (TableEnvironment e : List.of(streamingEnv, batchEnv)) {
            e.executeSql(
                    "CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '" + warehouse + "')");
            e.executeSql("USE CATALOG c");
        }
        batchEnv.executeSql(
                "CREATE TABLE people (id BIGINT, name STRING, age INT, PRIMARY KEY (id) NOT"
                        + " ENFORCED) WITH ('bucket' = '2')");
        env = batchEnv;
    }

    @Test
    void insertUpdateDeleteOverwriteTimeTravelAndChanges() throws Exception {
        batch();
        await(
                env.executeSql(
                        "INSERT INTO people VALUES (1, 'Ada', 36), (2, 'Bob', 41), (3, 'Cy', 29)"));
        assertThat(rows("SELECT * FROM people"))
                .containsExactlyInAnyOrder("+I[1, Ada, 36]", "+I[2, Bob, 41]", "+I[3, Cy, 29]");

        // Updates and deletes arrive as a changelog in a streaming job: commit 2, and more if a
        // checkpoint (every 200 ms) falls between its rows.
        streaming();
        DataStream<Row> changes =
                streamEnv.fromData(
                        Row.ofKind(RowKind.UPDATE_BEFORE, 2L, "Bob", 41),
                        Row.ofKind(RowKind.UPDATE_AFTER, 2L, "Bob", 42),
                        Row.ofKind(RowKind.DELETE, 3L, "Cy", 29),
                        Row.ofKind(RowKind.INSERT, 4L, "Dee", 50));
        streamingEnv.createTemporaryView(
                "changes",
                streamingEnv.fromChangelogStream(
                        changes,
                        Schema.newBuilder()
                                .column("f0", DataTypes.BIGINT().notNull())
                                .column("f1", DataTypes.STRING())
                                .column("f2", DataTypes.INT())
                                .primaryKey("f0")
                                .build()));
        await(env.executeSql("INSERT INTO people SELECT * FROM changes"));

        batch();
        long changed =
                Long.parseLong(
                        rows("SELECT MAX(commit_id) FROM `people$commits`")
                                .get(0)
                                .replaceAll("[^0-9]", ""));
        assertThat(rows("SELECT * FROM people"))
                .containsExactlyInAnyOrder("+I[1, Ada, 36]", "+I[2, Bob, 42]", "+I[4, Dee, 50]");
        assertThat(rows("SELECT name FROM people WHERE age > 40"))
                .containsExactlyInAnyOrder("+I[Bob]", "+I[Dee]");

        // Time travel to the first commit.
        assertThat(rows("SELECT * FROM people /*+ OPTIONS('scan.snapshot-id' = '1') */"))
                .containsExactlyInAnyOrder("+I[1, Ada, 36]", "+I[2, Bob, 41]", "+I[3, Cy, 29]");

        // The net changes of the streaming job's commits, read as a (bounded) changelog in
        // streaming mode.
        streaming();
        assertThat(
                        rows(
                                "SELECT * FROM people /*+ OPTIONS('scan.incremental.between' = '1,"
                                        + changed
                                        + "') */"))
                .containsExactlyInAnyOrder(
                        "-U[2, Bob, 41]", "+U[2, Bob, 42]", "-D[3, Cy, 29]", "+I[4, Dee, 50]");

        // INSERT OVERWRITE replaces the whole (unpartitioned) table (the next commit).
        batch();
        await(env.executeSql("INSERT OVERWRITE people VALUES (9, 'Zed', 20)"));
        assertThat(rows("SELECT * FROM people")).containsExactly("+I[9, Zed, 20]");

        List<String> commits = new ArrayList<>();
        for (long id = 1; id <= changed; id++) {
            commits.add("+I[" + id + ", APPEND]");
        }
        commits.add("+I[" + (changed + 1) + ", OVERWRITE]");
        assertThat(rows("SELECT commit_id, commit_kind FROM `people$commits` ORDER BY commit_id"))
                .isEqualTo(commits);
        assertThat(rows("SELECT COUNT(*) FROM `people$files`")).containsExactly("+I[1]");
    }

    @Test
    @Timeout(180)
    void streamingReadsFollowNewCommitsAsAChangelog() throws Exception {
        batch();
        await(env.executeSql("INSERT INTO people VALUES (1, 'Ada', 36), (2, 'Bob', 41)"));
        // Streaming: the current snapshot, then every later commit's changes, until cancelled.
        try (CloseableIterator<Row> it =
                streamingEnv
                        .executeSql(
                                "SELECT * FROM people /*+ OPTIONS('scan.discovery-interval' = '200 ms') */")
                        .collect()) {
            List<String> seen = new ArrayList<>();
            take(it, 2, seen);
            assertThat(seen).containsExactlyInAnyOrder("+I[1, Ada, 36]", "+I[2, Bob, 41]");
            await(batchEnv.executeSql("INSERT INTO people VALUES (1, 'Ada', 37), (5, 'Eve', 22)"));
            seen.clear();
            take(it, 3, seen);
            assertThat(seen)
                    .containsExactlyInAnyOrder(
                            "-U[1, Ada, 36]", "+U[1, Ada, 37]", "+I[5, Eve, 22]");
        }
    }

    @Test
    void nullPrimaryKeysAreRejectedAndNothingIsCommitted() throws Exception {
        batch();
        await(env.executeSql("INSERT INTO people VALUES (1, 'Ada', 36)"));
        assertThatThrownBy(
                        () ->
                                await(
                                        env.executeSql(
                                                "INSERT INTO people SELECT CAST(NULLIF(1, 1) AS"
                                                        + " BIGINT), 'Nobody', 1")))
                .satisfies(
                        e ->
                                assertThat(rootMessage(e))
                                        .contains("Column 'id' is NOT NULL")
                                        .contains("null value is being written"));
        assertThat(rows("SELECT * FROM people")).containsExactly("+I[1, Ada, 36]");
        assertThat(rows("SELECT COUNT(*) FROM `people$commits`")).containsExactly("+I[1]");
    }

    private static void take(CloseableIterator<Row> it, int n, List<String> into) {
        for (int i = 0; i < n; i++) {
            into.add(it.next().toString());
        }
    }

    @Test
    void partitionedTablesOverwriteOnlyTheirPartitions() throws Exception {
        batch();
        env.executeSql(
                "CREATE TABLE events (id BIGINT, dt STRING, v INT, PRIMARY KEY (id, dt) NOT"
                        + " ENFORCED) PARTITIONED BY (dt)");
        await(env.executeSql("INSERT INTO events VALUES (1, 'd1', 1), (2, 'd1', 2), (1, 'd2', 3)"));
        await(env.executeSql("INSERT OVERWRITE events PARTITION (dt = 'd1') SELECT 5, 50"));
        assertThat(rows("SELECT * FROM events"))
                .containsExactlyInAnyOrder("+I[5, d1, 50]", "+I[1, d2, 3]");
        assertThat(rows("SELECT * FROM events WHERE dt = 'd2'")).containsExactly("+I[1, d2, 3]");
    }

    @Test
    void connectorTablesCreateTheirTableOnFirstUseAndCheckItAfterwards() throws Exception {
        batch();
        String path = warehouse.resolve("standalone").toString();
        env.executeSql("USE CATALOG default_catalog");
        env.executeSql(
                "CREATE TABLE s (k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' ="
                        + " 'weir', 'path' = '"
                        + path
                        + "', 'bucket' = '3')");
        await(env.executeSql("INSERT INTO s VALUES ('a', 1), ('b', 2), ('a', 3)"));
        assertThat(rows("SELECT * FROM s")).containsExactlyInAnyOrder("+I[a, 3]", "+I[b, 2]");

        env.executeSql(
                "CREATE TABLE wrong (k STRING, n INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' ="
                        + " 'weir', 'path' = '"
                        + path
                        + "', 'bucket' = '3')");
        assertThatThrownBy(() -> rows("SELECT * FROM wrong"))
                .satisfies(
                        e ->
                                assertThat(rootMessage(e))
                                        .contains("n")
                                        .contains("BIGINT")
                                        .contains("INT"));
    }

    @Test
    void invalidOptionsFailNamingTheOption() {
        assertThatThrownBy(
                        () ->
                                env.executeSql(
                                        "CREATE TABLE bad (id BIGINT) WITH ('bucket' = 'many')"))
                .satisfies(e -> assertThat(rootMessage(e)).contains("'bucket'").contains("many"));
        assertThatThrownBy(
                        () ->
                                env.executeSql(
                                        "CREATE TABLE bad2 (id BIGINT) WITH ('buckets' = '4')"))
                .satisfies(e -> assertThat(rootMessage(e)).contains("buckets").contains("bucket"));
    }

    private void batch() {
        env = batchEnv;
    }

    private void streaming() {
        env = streamingEnv;
    }

    private List<String> rows(String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }

    private static void await(TableResult result) throws Exception {
        result.await();
    }

    private static String rootMessage(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append('\n');
        }
        return sb.toString();
    }
}
