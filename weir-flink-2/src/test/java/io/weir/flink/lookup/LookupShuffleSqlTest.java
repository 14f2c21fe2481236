package io.weir.flink.lookup;

import io.weir.flink.metrics.CollectingReporter;
import io.weir.flink.metrics.CollectingReporter.Seen;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lookup join's bucket shuffle on Flink 2 ({@code LOOKUP('shuffle' = 'true')}): each probe goes
 * to the lookup subtask of its bucket, so each of two subtasks loads only its two of the four
 * buckets (the {@code loadedFileGroups} gauge, read by a metric reporter), and every order still
 * joins its dimension row exactly.
 */
class LookupShuffleSqlTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(CollectingReporter.configure(new Configuration()))
                            .build());

    private static final int KEYS = 300;

    @TempDir Path dir;

    @Test
    void eachSubtaskLoadsOnlyTheBucketsOfTheKeysItIsSent() throws Exception {
        CollectingReporter.clear();
        DimTable dim = new DimTable(dir, 4);
        dim.randomChanges(new Random(5), 500, KEYS);
        dim.commit();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        StreamTableEnvironment sql = StreamTableEnvironment.create(env);
        sql.createTemporaryView(
                "orders",
                sql.fromDataStream(
                        // Two readers of ranges of ids: each range holds keys of every bucket.
                        env.fromSequence(0, KEYS + 19),
                        Schema.newBuilder()
                                .column("f0", DataTypes.BIGINT())
                                .columnByExpression("proc_time", "PROCTIME()")
                                .build()));
        sql.executeSql(
                "CREATE TABLE customers (id BIGINT NOT NULL, name STRING, country STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'weir', 'path' = '"
                        + dim.location
                        + "')");

        Map<Long, List<Object>> joined = new TreeMap<>();
        try (CloseableIterator<Row> rows =
                sql.executeSql(
                                "SELECT /*+ LOOKUP('table'='c', 'shuffle'='true') */ o.f0, c.id,"
                                        + " c.name, c.country FROM orders AS o LEFT JOIN customers"
                                        + " FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.f0 = c.id")
                        .collect()) {
            while (rows.hasNext()) {
                Row row = rows.next();
                List<Object> customer =
                        row.getField(1) == null
                                ? null
                                : Arrays.asList(row.getField(1), row.getField(2), row.getField(3));
                assertThat(joined.put((Long) row.getField(0), customer)).isNull();
            }
        }
        Map<Long, List<Object>> expected = new TreeMap<>();
        for (long id = 0; id < KEYS + 20; id++) {
            expected.put(id, dim.model.get(id));
        }
        assertThat(joined).isEqualTo(expected);

        // Read when the job ended: each subtask held the groups of its buckets only.
        List<Seen> loaded = CollectingReporter.named("loadedFileGroups");
        assertThat(loaded.stream().map(Seen::subtask).collect(Collectors.toSet()))
                .as("lookup subtasks: %s", loaded.stream().map(Seen::value).toList())
                .containsExactlyInAnyOrder(0, 1);
        List<Long> perSubtask = new ArrayList<>();
        loaded.forEach(s -> perSubtask.add(s.longValue()));
        assertThat(perSubtask).as("groups loaded per subtask, of 4").containsExactly(2L, 2L);
    }
}
