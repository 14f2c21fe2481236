package io.weir.flink.sql;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Flink 2.3's ON CONFLICT clause with a Weir table (Flink 2 only; docs/flink-sql.md). A query whose
 * upsert key differs from the table's primary key is refused by Flink's planner without the clause;
 * with {@code ON CONFLICT DO DEDUPLICATE} Flink's materializer resolves the conflicts and the table
 * holds what the clause defines. An insert-only query needs no clause.
 */
class OnConflictSqlTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path warehouse;
    private StreamExecutionEnvironment env;
    private StreamTableEnvironment streaming;
    private TableEnvironment batch;

    @BeforeEach
    void setUp() {
        env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        streaming = StreamTableEnvironment.create(env);
        batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        for (TableEnvironment e : List.of(streaming, batch)) {
            e.executeSql(
                    "CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '" + warehouse + "')");
            e.executeSql("USE CATALOG c");
        }
        batch.executeSql(
                "CREATE TABLE t (id BIGINT, name STRING, v INT, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '2')");
        // An upsert stream keyed by name: two names map to id 1, then one of them is deleted.
        streaming.createTemporaryView(
                "src",
                streaming.fromChangelogStream(
                        env.fromData(
                                Types.ROW_NAMED(
                                        new String[] {"name", "id", "v"},
                                        Types.STRING,
                                        Types.LONG,
                                        Types.INT),
                                Row.ofKind(RowKind.INSERT, "a", 1L, 10),
                                Row.ofKind(RowKind.INSERT, "b", 1L, 20),
                                Row.ofKind(RowKind.INSERT, "c", 2L, 30),
                                Row.ofKind(RowKind.UPDATE_AFTER, "c", 2L, 31),
                                Row.ofKind(RowKind.DELETE, "b", 1L, 20)),
                        Schema.newBuilder()
                                .column("name", DataTypes.STRING().notNull())
                                .column("id", DataTypes.BIGINT())
                                .column("v", DataTypes.INT())
                                .primaryKey("name")
                                .build(),
                        ChangelogMode.upsert()));
    }

    @Test
    void anUpsertKeyOtherThanThePrimaryKeyNeedsTheClause() {
        assertThatThrownBy(() -> streaming.executeSql("INSERT INTO t SELECT id, name, v FROM src"))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Primary key: [id], upsert key: [name]")
                .hasMessageContaining("Please specify an ON CONFLICT clause");
    }

    @Test
    void onConflictDoDeduplicateKeepsTheLatestRowPerPrimaryKey() throws Exception {
        streaming
                .executeSql("INSERT INTO t SELECT id, name, v FROM src ON CONFLICT DO DEDUPLICATE")
                .await();
        // Deleting b's row brings back a's, the latest row of id 1 that was not retracted.
        assertThat(rows("SELECT * FROM t"))
                .containsExactlyInAnyOrder(List.of(1L, "a", 10), List.of(2L, "c", 31));
    }

    @Test
    void anInsertOnlyQueryNeedsNoClause() throws Exception {
        streaming
                .executeSql(
                        // Literals only: one VALUES node, whose rows keep their order (rows
                        // with expressions become a union of one-row inputs, in any order).
                        "INSERT INTO t VALUES (1, 'x', 1), (1, 'y', 2), (3, 'z', 3)")
                .await();
        assertThat(rows("SELECT * FROM t"))
                .containsExactlyInAnyOrder(List.of(1L, "y", 2), List.of(3L, "z", 3));
    }

    private List<List<Object>> rows(String query) throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = batch.executeSql(query).collect()) {
            while (it.hasNext()) {
                Row row = it.next();
                List<Object> values = new ArrayList<>();
                for (int i = 0; i < row.getArity(); i++) {
                    values.add(row.getField(i));
                }
                rows.add(values);
            }
        }
        return rows;
    }
}
