package io.weir.flink.catalog;

import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.types.RowType;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code t$audit_log} in a streaming query: the snapshot as +I rows, then every later commit's
 * changes, each kind in the {@code rowkind} column and every row an insert (as Paimon's).
 */
class AuditLogStreamingTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path warehouse;

    @Test
    void aStreamingReadGivesTheSnapshotThenTheChangesWithTheirKinds() throws Exception {
        TableEnvironment env =
                StreamTableEnvironment.create(
                        StreamExecutionEnvironment.getExecutionEnvironment(),
                        EnvironmentSettings.inStreamingMode());
        env.executeSql(
                "CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '" + warehouse + "')");
        env.executeSql("CREATE DATABASE c.db");
        env.executeSql(
                "CREATE TABLE c.db.t (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH"
                        + " ('bucket' = '1')");
        Table table = Tables.load(warehouse.resolve("db.db/t").toString());
        commit(table, RowKind.INSERT, 1L, "a", RowKind.INSERT, 2L, "b");

        try (CloseableIterator<Row> rows =
                env.executeSql(
                                "SELECT * FROM c.db.`t$audit_log` /*+"
                                        + " OPTIONS('scan.discovery-interval' = '100 ms') */")
                        .collect()) {
            assertThat(take(rows, 2)).containsExactlyInAnyOrder("+I[+I, 1, a]", "+I[+I, 2, b]");
            commit(table, RowKind.INSERT, 1L, "a2", RowKind.DELETE, 2L, "b");
            assertThat(take(rows, 3))
                    .containsExactlyInAnyOrder("+I[-U, 1, a]", "+I[+U, 1, a2]", "+I[-D, 2, b]");
        }
    }

    /** One commit of two changes, each given as (kind, id, v). */
    private static void commit(Table table, Object... changes) {
        RowType type = table.schema().rowType();
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < changes.length; i += 3) {
                write.write(
                        BinaryRowWriter.toRow(
                                type, (RowKind) changes[i], changes[i + 1], changes[i + 2]));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    private static List<String> take(CloseableIterator<Row> rows, int n) {
        List<String> out = new ArrayList<>();
        while (out.size() < n && rows.hasNext()) {
            out.add(rows.next().toString());
        }
        return out;
    }
}
