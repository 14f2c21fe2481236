package io.weir.flink.table;

import io.weir.Schema;
import io.weir.Table;
import io.weir.Tables;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** SQL into Weir tables: inserts, upserts, and INSERT OVERWRITE of tables and partitions. */
class WeirTableSinkTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    private static StreamTableEnvironment sql(RuntimeExecutionMode mode) {
        Configuration conf = new Configuration();
        conf.set(ExecutionOptions.RUNTIME_MODE, mode);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        if (mode == RuntimeExecutionMode.STREAMING) {
            env.enableCheckpointing(100);
        }
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.registerCatalog("weir", new TestSinkCatalog("weir"));
        tEnv.useCatalog("weir");
        return tEnv;
    }

    private String table(String name, Schema schema) {
        return Tables.create(dir.resolve(name).toString(), schema, Map.of("bucket", "2"))
                .location();
    }

    private static Schema keyed() {
        return Schema.builder()
                .column("id", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .primaryKey("id", "dt")
                .partitionKeys("dt")
                .build();
    }

    private static void createKeyed(StreamTableEnvironment tEnv, String name, String path) {
        tEnv.executeSql(
                "CREATE TABLE "
                        + name
                        + " (id BIGINT NOT NULL, dt STRING NOT NULL, v BIGINT,"
                        + " PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                        + " WITH ('path' = '"
                        + path
                        + "')");
    }

    private static void run(StreamTableEnvironment tEnv, String statement) throws Exception {
        tEnv.executeSql(statement).await();
    }

    /** Rows as strings, sorted: easy to read in a failure. */
    private static List<String> rows(String location) {
        Table table = Tables.load(location);
        List<String> rows = new ArrayList<>();
        for (List<Object> row :
                Rows.readAll(table.newScan().rows(), table.schema().rowType(), false)) {
            rows.add(row.toString());
        }
        rows.sort(Comparator.naturalOrder());
        return rows;
    }

    @Test
    void batchInsertAndOverwrite() throws Exception {
        String path = table("keyed", keyed());
        StreamTableEnvironment tEnv = sql(RuntimeExecutionMode.BATCH);
        createKeyed(tEnv, "t", path);

        run(tEnv, "INSERT INTO t VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3), (4, 'a', 4)");
        assertThat(rows(path)).containsExactly("[1, a, 1]", "[2, b, 2]", "[3, c, 3]", "[4, a, 4]");

        // Static partition: replaces 'a' only.
        run(tEnv, "INSERT OVERWRITE t PARTITION (dt = 'a') SELECT 10, 100");
        assertThat(rows(path)).containsExactly("[10, a, 100]", "[2, b, 2]", "[3, c, 3]");

        // Static partition and no rows: empties it.
        run(
                tEnv,
                "INSERT OVERWRITE t PARTITION (dt = 'b') SELECT id, v FROM (VALUES (1, 1)) AS"
                        + " s(id, v) WHERE id < 0");
        assertThat(rows(path)).containsExactly("[10, a, 100]", "[3, c, 3]");

        // Dynamic: exactly the partitions that receive rows ('c' and the new 'd').
        run(tEnv, "INSERT OVERWRITE t VALUES (20, 'c', 1), (21, 'd', 2), (22, 'd', 3)");
        assertThat(rows(path))
                .containsExactly("[10, a, 100]", "[20, c, 1]", "[21, d, 2]", "[22, d, 3]");

        // An unpartitioned table is replaced whole.
        String plain =
                table(
                        "plain",
                        Schema.builder()
                                .column("id", DataTypes.BIGINT())
                                .column("v", DataTypes.STRING())
                                .build());
        tEnv.executeSql("CREATE TABLE p (id BIGINT, v STRING) WITH ('path' = '" + plain + "')");
        run(tEnv, "INSERT INTO p VALUES (1, 'x'), (1, 'x'), (2, 'y')");
        assertThat(rows(plain)).containsExactly("[1, x]", "[1, x]", "[2, y]");
        run(tEnv, "INSERT OVERWRITE p VALUES (3, 'z')");
        assertThat(rows(plain)).containsExactly("[3, z]");
    }

    /** An updating query into a keyed table upserts (the planner drops -U). */
    @Test
    void streamingUpserts() throws Exception {
        String path = table("counts", keyed());
        StreamTableEnvironment tEnv = sql(RuntimeExecutionMode.STREAMING);
        createKeyed(tEnv, "t", path);
        run(
                tEnv,
                "INSERT INTO t SELECT id, dt, COUNT(*) FROM (VALUES (1, 'a'), (2, 'a'), (1, 'a'),"
                        + " (3, 'b'), (1, 'a'), (3, 'b')) AS s(id, dt) GROUP BY id, dt");
        assertThat(rows(path)).containsExactly("[1, a, 3]", "[2, a, 1]", "[3, b, 2]");
    }

    @Test
    void anAppendOnlyTableTakesInsertsOnly() {
        String path =
                table(
                        "log",
                        Schema.builder()
                                .column("id", DataTypes.BIGINT())
                                .column("v", DataTypes.BIGINT())
                                .build());
        StreamTableEnvironment tEnv = sql(RuntimeExecutionMode.STREAMING);
        tEnv.executeSql("CREATE TABLE l (id BIGINT, v BIGINT) WITH ('path' = '" + path + "')");
        assertThatThrownBy(
                        () ->
                                tEnv.executeSql(
                                        "INSERT INTO l SELECT id, COUNT(*) FROM (VALUES (1), (1))"
                                                + " AS s(id) GROUP BY id"))
                .isInstanceOf(TableException.class)
                .hasMessageContaining("doesn't support consuming update");
    }
}
