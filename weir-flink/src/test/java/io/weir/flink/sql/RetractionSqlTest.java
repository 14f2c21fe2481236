package io.weir.flink.sql;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
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
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Queries whose results retract rows: a filter after an updating aggregate (which sends the -U of a
 * key whose +U it filtered out), a Top-N, a deduplication by {@code ROW_NUMBER}, and a join with a
 * side that deletes. Each runs in streaming mode into a Weir table; the table must equal the
 * query's own result, computed by Flink from the same input (its changelog, applied by the table's
 * primary key, which is a unique key of each query's result).
 */
class RetractionSqlTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path warehouse;
    private StreamTableEnvironment streaming;
    private TableEnvironment batch;

    @BeforeEach
    void setUp() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(200);
        streaming = StreamTableEnvironment.create(env);
        StreamExecutionEnvironment batchEnv = StreamExecutionEnvironment.getExecutionEnvironment();
        batchEnv.setParallelism(1);
        batch = StreamTableEnvironment.create(batchEnv, EnvironmentSettings.inBatchMode());
        for (TableEnvironment e : List.of(streaming, batch)) {
            e.executeSql(
                    "CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '" + warehouse + "')");
        }
        // Insert-only input: (g, k, v) rows, 40 keys in 5 groups, some keys many times.
        Random random = new Random(7);
        List<Row> events = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            long k = random.nextInt(40);
            events.add(Row.of(k % 5, k, (long) random.nextInt(1000)));
        }
        DataStream<Row> stream = env.fromData(events).setParallelism(1);
        streaming.createTemporaryView(
                "src",
                streaming.fromDataStream(
                        stream,
                        Schema.newBuilder()
                                .column("f0", DataTypes.BIGINT())
                                .column("f1", DataTypes.BIGINT())
                                .column("f2", DataTypes.BIGINT())
                                .columnByExpression("pt", "PROCTIME()")
                                .build()));
        streaming.executeSql(
                "CREATE TEMPORARY VIEW events AS SELECT f0 AS g, f1 AS k, f2 AS v, pt FROM src");

        // A changelog side for the join: keys inserted, some updated, some deleted.
        List<Row> dims = new ArrayList<>();
        for (long k = 0; k < 40; k++) {
            dims.add(Row.ofKind(RowKind.INSERT, k, "d" + k));
        }
        for (long k = 0; k < 40; k += 3) {
            dims.add(Row.ofKind(RowKind.DELETE, k, "d" + k));
        }
        for (long k = 1; k < 40; k += 5) {
            dims.add(Row.ofKind(RowKind.UPDATE_AFTER, k, "e" + k));
        }
        streaming.createTemporaryView(
                "dims",
                streaming.fromChangelogStream(
                        env.fromData(dims).setParallelism(1),
                        Schema.newBuilder()
                                .column("f0", DataTypes.BIGINT().notNull())
                                .column("f1", DataTypes.STRING())
                                .primaryKey("f0")
                                .build()));
    }

    @Test
    void aFilterAfterAnUpdatingAggregateDeletesTheKeysItDrops() throws Exception {
        check(
                "counts",
                "k BIGINT, cnt BIGINT, PRIMARY KEY (k) NOT ENFORCED",
                1,
                "SELECT k, cnt FROM (SELECT k, COUNT(*) AS cnt FROM events GROUP BY k)"
                        + " WHERE cnt < 15");
    }

    @Test
    void aTopNDeletesTheRowsThatFallOut() throws Exception {
        check(
                "top2",
                "g BIGINT, k BIGINT, total BIGINT, PRIMARY KEY (g, k) NOT ENFORCED",
                2,
                "SELECT g, k, total FROM (SELECT g, k, total, ROW_NUMBER() OVER (PARTITION BY g"
                        + " ORDER BY total DESC) AS rn FROM (SELECT g, k, SUM(v) AS total FROM"
                        + " events GROUP BY g, k)) WHERE rn <= 2");
    }

    @Test
    void aDeduplicationKeepsTheLastRowOfEachKey() throws Exception {
        check(
                "latest",
                "k BIGINT, v BIGINT, PRIMARY KEY (k) NOT ENFORCED",
                1,
                "SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt"
                        + " DESC) AS rn FROM events) WHERE rn = 1");
    }

    @Test
    void aJoinWithADeletingSideDeletes() throws Exception {
        check(
                "joined",
                "k BIGINT, name STRING, total BIGINT, PRIMARY KEY (k) NOT ENFORCED",
                1,
                "SELECT e.k, d.f1, e.total FROM (SELECT k, SUM(v) AS total FROM events GROUP BY"
                        + " k) e JOIN dims d ON e.k = d.f0");
    }

    /**
     * Writes the query into a new table of the given columns and compares it with the query's
     * changelog applied by its first {@code keyColumns} columns.
     */
    private void check(String table, String columns, int keyColumns, String query)
            throws Exception {
        batch.executeSql(
                        "CREATE TABLE c.`default`."
                                + table
                                + " ("
                                + columns
                                + ") WITH ('bucket' = '2')")
                .await();
        streaming.executeSql("INSERT INTO c.`default`." + table + " " + query).await();

        Map<List<Object>, String> model = new TreeMap<>(RetractionSqlTest::compareKeys);
        int retractions = 0;
        try (CloseableIterator<Row> it = streaming.executeSql(query).collect()) {
            while (it.hasNext()) {
                Row r = it.next();
                List<Object> key = new ArrayList<>();
                for (int i = 0; i < keyColumns; i++) {
                    key.add(r.getField(i));
                }
                if (r.getKind() == RowKind.INSERT || r.getKind() == RowKind.UPDATE_AFTER) {
                    Row insert = Row.copy(r);
                    insert.setKind(RowKind.INSERT);
                    model.put(key, insert.toString());
                } else {
                    model.remove(key);
                    retractions++;
                }
            }
        }
        assertThat(retractions).as("the query retracts rows").isPositive();
        List<String> actual = new ArrayList<>();
        try (CloseableIterator<Row> it =
                batch.executeSql("SELECT * FROM c.`default`." + table).collect()) {
            it.forEachRemaining(r -> actual.add(r.toString()));
        }
        assertThat(actual).containsExactlyInAnyOrderElementsOf(model.values());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareKeys(List<Object> a, List<Object> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = ((Comparable) a.get(i)).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
