package io.weir.flink.sql;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The merge engines through Flink SQL (docs/merge-engines.md): options in the DDL, several INSERTs
 * folded by key, compaction in between, and one clear error for a bad option.
 */
class MergeEngineSqlTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(1)
                            .build());

    @TempDir Path warehouse;
    private TableEnvironment sql;

    @BeforeEach
    void setUp() {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.executeSql(
                "CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '" + warehouse + "')");
        sql.executeSql("USE CATALOG c");
    }

    @Test
    void partialUpdateAssemblesAWideRowFromSeveralWrites() throws Exception {
        sql.executeSql(
                "CREATE TABLE wide (k BIGINT, a STRING, b INT, g BIGINT, x STRING,"
                        + " PRIMARY KEY (k) NOT ENFORCED) WITH ('merge-engine' = 'partial-update',"
                        + " 'fields.g.sequence-group' = 'x')");
        insert(
                "INSERT INTO wide VALUES (1, 'a1', CAST(NULL AS INT), 5, 'x5'), (2, 'a2', 20, 1, 'x1')");
        insert("INSERT INTO wide VALUES (1, CAST(NULL AS STRING), 10, 3, 'x3')"); // older g: x kept
        sql.executeSql("CALL sys.compact('default.wide')").await();
        insert("INSERT INTO wide VALUES (2, 'b2', CAST(NULL AS INT), 2, CAST(NULL AS STRING))");
        assertThat(rows("SELECT * FROM wide"))
                .containsExactly("+I[1, a1, 10, 5, x5]", "+I[2, b2, 20, 2, null]");
    }

    @Test
    void aggregationFoldsEachFieldByItsFunction() throws Exception {
        sql.executeSql(
                "CREATE TABLE metrics (k STRING, total BIGINT, peak INT, n BIGINT, tags STRING,"
                        + " latest STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ("
                        + " 'merge-engine' = 'aggregation',"
                        + " 'fields.total.aggregate-function' = 'sum',"
                        + " 'fields.peak.aggregate-function' = 'max',"
                        + " 'fields.n.aggregate-function' = 'count',"
                        + " 'fields.tags.aggregate-function' = 'listagg')");
        insert(
                "INSERT INTO metrics VALUES ('a', 5, 7, 0, 't1', 'l1'), ('a', 2, 9, 0, 't2',"
                        + " CAST(NULL AS STRING)), ('b', 1, 1, 0, CAST(NULL AS STRING), 'l0')");
        insert("INSERT INTO metrics VALUES ('a', 10, 3, 0, 't3', 'l2')");
        sql.executeSql("CALL sys.compact('default.metrics')").await();
        insert(
                "INSERT INTO metrics VALUES ('b', 4, CAST(NULL AS INT), CAST(NULL AS BIGINT), 'u', 'l9')");
        assertThat(rows("SELECT * FROM metrics"))
                .containsExactly("+I[a, 17, 9, 3, t1,t2,t3, l2]", "+I[b, 5, 1, 1, u, l9]");
    }

    @Test
    void firstRowKeepsTheFirstValueOfEachKey() throws Exception {
        sql.executeSql(
                "CREATE TABLE firsts (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED)"
                        + " WITH ('merge-engine' = 'first-row')");
        insert("INSERT INTO firsts VALUES (1, 'first'), (2, 'two')");
        insert("INSERT INTO firsts VALUES (1, 'second'), (3, 'three')");
        sql.executeSql("CALL sys.compact('default.firsts')").await();
        insert("INSERT INTO firsts VALUES (1, 'third')");
        assertThat(rows("SELECT * FROM firsts"))
                .containsExactly("+I[1, first]", "+I[2, two]", "+I[3, three]");
    }

    @Test
    void aBadAggregateOptionIsOneClearError() {
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        "CREATE TABLE bad (k INT, v STRING, PRIMARY KEY (k) NOT"
                                                + " ENFORCED) WITH ('merge-engine' ="
                                                + " 'aggregation', 'fields.v.aggregate-function' ="
                                                + " 'sum')"))
                .rootCause()
                .hasMessageContaining(
                        "option 'fields.v.aggregate-function': 'sum' needs a numeric column; 'v'"
                                + " is STRING");
    }

    private void insert(String statement) throws Exception {
        sql.executeSql(statement).await();
    }

    private List<String> rows(String query) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }
}
