package io.weir.flink.lookup;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.types.DataTypes;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streaming SQL job joins an orders table with a Weir dimension table while the test commits
 * upserts, deletes and compactions to the dimension table through the core API. Each round commits
 * dimension changes, then orders, then reads exactly the join rows the model predicts: the lookup
 * must see each dimension commit (refresh interval 0) and never a deleted key.
 */
class LookupJoinSqlTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final int KEYS = 60;

    /** Rounds of dimension changes and orders; more with -Dweir.lookup.rounds=N. */
    private static final int ROUNDS = Integer.getInteger("weir.lookup.rounds", 6);

    @TempDir Path dir;

    @Test
    @Timeout(300)
    void joinsEachOrderWithTheDimensionRowsCommittedBeforeIt() throws Exception {
        DimTable dim = new DimTable(dir, 4);
        Random random = new Random(28);
        dim.randomChanges(random, 80, KEYS);
        dim.commit();
        Table orders =
                Tables.create(
                        dir.resolve("orders").toString(),
                        Schema.builder()
                                .column("oid", DataTypes.BIGINT())
                                .column("cid", DataTypes.BIGINT())
                                .column("country", DataTypes.STRING())
                                .build(),
                        Map.of("bucket", "2"));

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        StreamTableEnvironment sql = StreamTableEnvironment.create(env);
        sql.executeSql(
                "CREATE TABLE orders (oid BIGINT, cid BIGINT, country STRING,"
                        + " proc_time AS PROCTIME()) WITH ('connector' = 'weir', 'path' = '"
                        + orders.location()
                        + "', 'scan.discovery-interval' = '50 ms')");
        sql.executeSql(
                "CREATE TABLE customers (id BIGINT NOT NULL, name STRING, country STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'weir', 'path' = '"
                        + dim.location
                        + "', 'lookup.refresh-interval' = '0 ms')");
        String join =
                " FROM orders AS o LEFT JOIN customers FOR SYSTEM_TIME AS OF o.proc_time AS c ON ";
        try (CloseableIterator<Row> results =
                sql.executeSql(
                                "SELECT 'pk', o.oid, c.id, c.name, c.country"
                                        + join
                                        + "o.cid = c.id UNION ALL SELECT 'country', o.oid, c.id,"
                                        + " c.name, c.country"
                                        + join
                                        + "o.country = c.country")
                        .collect()) {
            long oid = 0;
            for (int round = 0; round < ROUNDS; round++) {
                if (round > 0) {
                    dim.randomChanges(random, 15, KEYS);
                    dim.commit();
                    if (round % 3 == 0) {
                        dim.compact();
                    }
                }
                List<String> expected = new ArrayList<>();
                try (TableWrite write = orders.newWrite().create()) {
                    for (int i = 0; i < 10; i++, oid++) {
                        long cid = random.nextInt(KEYS + 10);
                        String country = DimTable.COUNTRIES[random.nextInt(3)];
                        write.write(
                                BinaryRowWriter.toRow(
                                        orders.schema().rowType(), oid, cid, country));
                        expected.add(joined("pk", oid, dim.model.get(cid)));
                        boolean matched = false;
                        for (List<Object> c : dim.model.values()) {
                            if (c.get(2).equals(country)) {
                                expected.add(joined("country", oid, c));
                                matched = true;
                            }
                        }
                        if (!matched) {
                            expected.add(joined("country", oid, null));
                        }
                    }
                    List<DataFile> files = write.prepareCommit();
                    orders.newAppend().addFiles(files).identity("orders", round + 1).commit();
                }
                List<String> actual = new ArrayList<>();
                while (actual.size() < expected.size()) {
                    Row r = results.next();
                    actual.add(
                            joined(
                                    (String) r.getField(0),
                                    (Long) r.getField(1),
                                    r.getField(2) == null
                                            ? null
                                            : List.of(
                                                    r.getField(2), r.getField(3), r.getField(4))));
                }
                assertThat(actual)
                        .as("round %s", round)
                        .containsExactlyInAnyOrderElementsOf(expected);
            }
        }
    }

    private static String joined(String query, long oid, List<Object> customer) {
        return query + "," + oid + "," + (customer == null ? "-" : customer.toString());
    }
}
