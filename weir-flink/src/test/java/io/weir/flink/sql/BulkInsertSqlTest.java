package io.weir.flink.sql;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Table;
import io.weir.Tables;
import io.weir.testing.Rows;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Batch {@code INSERT INTO} with {@code 'write.mode' = 'bulk-insert'} through the real {@code weir}
 * catalog and connector gives exactly the table contents (snapshot read) that the same rows give
 * when a streaming job upserts them, into an empty table and into a non-empty one; writes base
 * files only, in one commit; is the batch default; and is refused in streaming mode.
 */
class BulkInsertSqlTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final String COLUMNS =
            "(id BIGINT, dt STRING, name STRING, v INT, PRIMARY KEY (id, dt) NOT ENFORCED)"
                    + " PARTITIONED BY (dt)";
    private static final String OPTIONS =
            " WITH ('bucket' = '3', 'write-buffer-size' = '1 mb', 'page-size' = '4 kb',"
                    + " 'write-only' = 'true')";

    @TempDir Path warehouse;
    private StreamExecutionEnvironment batchStreamEnv;
    private StreamTableEnvironment batch;
    private StreamExecutionEnvironment streamEnv;
    private StreamTableEnvironment streaming;

    @BeforeEach
    void setUp() {
        batchStreamEnv = StreamExecutionEnvironment.getExecutionEnvironment();
        batchStreamEnv.setParallelism(2);
        batch = StreamTableEnvironment.create(batchStreamEnv, EnvironmentSettings.inBatchMode());
        streamEnv = StreamExecutionEnvironment.getExecutionEnvironment();
        streamEnv.setParallelism(2);
        streamEnv.enableCheckpointing(200);
        streaming = StreamTableEnvironment.create(streamEnv);
        for (StreamTableEnvironment e : List.of(batch, streaming)) {
            e.executeSql(
                    "CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '" + warehouse + "')");
            e.executeSql("USE CATALOG c");
        }
        batch.executeSql("CREATE TABLE bulk " + COLUMNS + OPTIONS);
        batch.executeSql("CREATE TABLE streamed " + COLUMNS + OPTIONS);
    }

    @Test
    void bulkInsertEqualsStreamingUpserts() throws Exception {
        Random random = new Random(11);
        Map<List<Object>, List<Object>> model = new LinkedHashMap<>();

        // 1. Into empty tables; about 60,000 rows with repeated keys spill every writer's 1 MB.
        List<Row> rows = rows(random, 60_000, model);
        source(batch, batchStreamEnv, rows);
        batch.executeSql(
                        "INSERT INTO bulk /*+ OPTIONS('write.mode' = 'bulk-insert') */"
                                + " SELECT * FROM src")
                .await();
        source(streaming, streamEnv, rows);
        streaming.executeSql("INSERT INTO streamed SELECT * FROM src").await();
        assertSameContents(model);
        Table bulk = table("bulk");
        assertThat(bulk.currentSnapshot().id()).as("one commit").isEqualTo(1);
        assertThat(bulk.commit(1).added()).allMatch(f -> f.kind() == FileKind.BASE);
        assertThat(bulk.commit(1).added()).hasSize(9); // 3 partitions x 3 buckets

        // 2. Into the non-empty tables: newer rows win, as with upserts.
        rows = rows(random, 20_000, model);
        source(batch, batchStreamEnv, rows);
        batch.executeSql(
                        "INSERT INTO bulk /*+ OPTIONS('write.mode' = 'bulk-insert') */"
                                + " SELECT * FROM src")
                .await();
        source(streaming, streamEnv, rows);
        streaming.executeSql("INSERT INTO streamed SELECT * FROM src").await();
        assertSameContents(model);
        bulk.refresh();
        Commit second = bulk.commit(2);
        assertThat(second.added()).allMatch(f -> f.kind() == FileKind.BASE);
        long before = bulk.commit(1).added().stream().mapToLong(DataFile::sequence).max().orElse(0);
        assertThat(second.added()).allMatch(f -> f.sequence() > before);
    }

    @Test
    void bulkInsertIsTheBatchDefault() throws Exception {
        Map<List<Object>, List<Object>> model = new LinkedHashMap<>();
        source(batch, batchStreamEnv, rows(new Random(3), 2_000, model));
        batch.executeSql("INSERT INTO bulk SELECT * FROM src").await();
        Table bulk = table("bulk");
        assertThat(bulk.commit(1).added()).allMatch(f -> f.kind() == FileKind.BASE);
        assertThat(read(bulk)).isEqualTo(sorted(new ArrayList<>(model.values())));

        // 'upsert' in batch mode writes log files.
        batch.executeSql(
                        "INSERT INTO streamed /*+ OPTIONS('write.mode' = 'upsert') */"
                                + " SELECT * FROM src")
                .await();
        assertThat(table("streamed").commit(1).added()).allMatch(f -> f.kind() == FileKind.LOG);
        assertThat(read(table("streamed"))).isEqualTo(read(bulk));
    }

    @Test
    void bulkInsertInStreamingModeFailsNamingTheOption() {
        List<Row> rows = rows(new Random(5), 10, new LinkedHashMap<>());
        source(streaming, streamEnv, rows);
        source(batch, batchStreamEnv, rows);
        assertThatThrownBy(
                        () ->
                                streaming.executeSql(
                                        "INSERT INTO bulk /*+ OPTIONS('write.mode' ="
                                                + " 'bulk-insert') */ SELECT * FROM src"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("'write.mode' = 'bulk-insert'")
                                        .contains("streaming execution mode")
                                        .contains("'execution.runtime-mode' = 'batch'"));
        assertThatThrownBy(
                        () ->
                                batch.executeSql(
                                        "INSERT INTO bulk /*+ OPTIONS('write.mode' = 'fast') */"
                                                + " SELECT * FROM src"))
                .satisfies(e -> assertThat(messages(e)).contains("write.mode").contains("fast"));
        // A per-statement option: not stored with a catalog table.
        assertThatThrownBy(
                        () ->
                                batch.executeSql(
                                        "CREATE TABLE t (id BIGINT) WITH ('write.mode' ="
                                                + " 'bulk-insert')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("'write.mode' is not stored with the table"));
    }

    /** Random rows (insert-only, keys repeated) and the model of their upserts, in order. */
    private static List<Row> rows(Random random, int count, Map<List<Object>, List<Object>> model) {
        List<Row> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long id = random.nextInt(15_000);
            String dt = "2024-01-0" + (1 + random.nextInt(3));
            String name = random.nextInt(10) == 0 ? null : "name-" + random.nextInt(100_000);
            Integer v = random.nextInt(10) == 0 ? null : random.nextInt();
            rows.add(Row.of(id, dt, name, v));
            model.put(List.of(id, dt), java.util.Arrays.asList(id, dt, name, v));
        }
        return rows;
    }

    /** The view {@code src}: the rows in order, from a single source task. */
    private static void source(
            StreamTableEnvironment tEnv, StreamExecutionEnvironment env, List<Row> rows) {
        RowTypeInfo type =
                new RowTypeInfo(
                        new org.apache.flink.api.common.typeinfo.TypeInformation<?>[] {
                            Types.LONG, Types.STRING, Types.STRING, Types.INT
                        },
                        new String[] {"id", "dt", "name", "v"});
        tEnv.dropTemporaryView("src");
        tEnv.createTemporaryView(
                "src", tEnv.fromDataStream(env.fromData(type, rows.toArray(new Row[0]))));
    }

    private void assertSameContents(Map<List<Object>, List<Object>> model) {
        List<List<Object>> expected = sorted(new ArrayList<>(model.values()));
        assertThat(read(table("streamed"))).as("upserted by a streaming job").isEqualTo(expected);
        assertThat(read(table("bulk"))).as("bulk inserted by a batch job").isEqualTo(expected);
    }

    private Table table(String name) {
        return Tables.load(warehouse.resolve("default.db").resolve(name).toString());
    }

    private static List<List<Object>> read(Table table) {
        return sorted(Rows.readAll(table.newScan().rows(), table.schema().rowType(), false));
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        rows.sort(Comparator.comparing(Objects::toString));
        return rows;
    }

    private static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append('\n');
        }
        return sb.toString();
    }
}
