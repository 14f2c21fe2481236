package io.weir.flink.sql;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.Table;
import io.weir.Tables;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ALTER TABLE through Flink SQL (docs/flink-sql.md, "Changing a table"): every change is a new
 * schema version, old rows read through field ids, time travel returns a past snapshot with its own
 * columns, SHOW CREATE TABLE shows the current ones, and a running job keeps writing its own.
 */
class SchemaEvolutionSqlTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path warehouse;
    private TableEnvironment sql;

    @BeforeEach
    void setUp() {
        sql = catalog(EnvironmentSettings.inBatchMode());
    }

    private TableEnvironment catalog(EnvironmentSettings settings) {
        TableEnvironment env = TableEnvironment.create(settings);
        env.getConfig().set("table.local-time-zone", "UTC");
        // A streaming job and the batch statements beside it fit the cluster's slots.
        env.getConfig().set("parallelism.default", "1");
        env.executeSql(
                "CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '" + warehouse + "')");
        env.executeSql("USE CATALOG c");
        return env;
    }

    private Table table(String name) {
        return Tables.load(warehouse.resolve("default.db").resolve(name).toString());
    }

    @Test
    void alterTableChangesColumnsAndOptionsWithoutRewritingData() throws Exception {
        sql.executeSql(
                "CREATE TABLE t (k INT, v INT, s STRING, PRIMARY KEY (k) NOT ENFORCED)"
                        + " WITH ('bucket' = '2')");
        insert("INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b')");
        long before = table("t").currentSnapshot().timestampMillis();
        sql.executeSql("ALTER TABLE t ADD c DOUBLE COMMENT 'added' AFTER k").await();
        sql.executeSql("ALTER TABLE t RENAME v TO amount").await();
        sql.executeSql("ALTER TABLE t MODIFY amount BIGINT COMMENT 'widened'").await();
        sql.executeSql("ALTER TABLE t DROP s").await();
        sql.executeSql("ALTER TABLE t ADD first_col STRING FIRST").await();
        sql.executeSql("ALTER TABLE t SET ('snapshot.num-retained.min' = '20')").await();
        Table t = table("t");
        assertThat(t.metadata().schemaId()).isEqualTo(6);
        assertThat(t.options().toMap()).containsEntry("snapshot.num-retained.min", "20");

        insert("INSERT INTO t VALUES ('x', 3, 3.5, 30000000000)");
        assertThat(rows("SELECT * FROM t"))
                .containsExactly(
                        "+I[null, 1, null, 10]",
                        "+I[null, 2, null, 20]",
                        "+I[x, 3, 3.5, 30000000000]");
        sql.executeSql("CALL sys.compact('default.t')").await();
        // Compaction writes the latest version; a group it leaves alone keeps its old file.
        Table compacted = table("t");
        Commit compaction = compacted.commit(compacted.currentSnapshot().id());
        assertThat(compaction.kind()).isEqualTo(CommitKind.COMPACT);
        assertThat(compaction.added()).isNotEmpty().allMatch(f -> f.schemaId() == 6);
        assertThat(rows("SELECT k, amount FROM t WHERE amount > 15"))
                .containsExactly("+I[2, 20]", "+I[3, 30000000000]");

        // Time travel: the snapshot before the changes, with its own columns.
        assertThat(rows("SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '" + utc(before) + "'"))
                .containsExactly("+I[1, 10, a]", "+I[2, 20, b]");

        String ddl = single("SHOW CREATE TABLE t");
        assertThat(ddl)
                .contains("`first_col` VARCHAR(2147483647)")
                .contains("`c` DOUBLE COMMENT 'added'")
                .contains("`amount` BIGINT COMMENT 'widened'")
                .doesNotContain("`s`")
                .contains("'snapshot.num-retained.min' = '20'");

        sql.executeSql("ALTER TABLE t RESET ('snapshot.num-retained.min')").await();
        assertThat(table("t").options().toMap()).doesNotContainKey("snapshot.num-retained.min");
    }

    @Test
    void refusedChangesNameTheTableTheColumnAndTheRule() {
        sql.executeSql(
                "CREATE TABLE r (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)"
                        + " WITH ('sequence.field' = 'v')");
        // Flink's planner refuses to drop a key column itself.
        assertThatThrownBy(() -> sql.executeSql("ALTER TABLE r DROP k"))
                .hasMessageContaining("primary key");
        assertThatThrownBy(() -> sql.executeSql("ALTER TABLE r RENAME k TO id"))
                .rootCause()
                .hasMessage(
                        "Cannot rename column 'k' of table default.r: it is part of the primary key"
                                + " [k], and primary-key columns cannot change");
        assertThatThrownBy(() -> sql.executeSql("ALTER TABLE r MODIFY v SMALLINT"))
                .rootCause()
                .hasMessageContaining("Cannot change the type of column 'v' of table default.r");
        assertThatThrownBy(() -> sql.executeSql("ALTER TABLE r SET ('bucket' = '8')"))
                .rootCause()
                .hasMessageContaining("CALL sys.rescale");
        assertThatThrownBy(() -> sql.executeSql("ALTER TABLE r ADD w INT NOT NULL"))
                .rootCause()
                .hasMessage(
                        "Cannot add column 'w' to table default.r as INT NOT NULL: rows written"
                                + " before have no value for it, so it must be nullable");
        assertThatThrownBy(() -> sql.executeSql("ALTER TABLE r ADD c AS v + 1"))
                .rootCause()
                .hasMessage(
                        "Cannot alter table default.r: column 'c' is not a physical column; a Weir"
                                + " table stores physical columns only");
        assertThat(table("r").metadata().schemaId()).isZero();
    }

    @Test
    void aRunningJobKeepsWritingItsColumnsAfterAColumnIsAdded() throws Exception {
        sql.executeSql(
                "CREATE TABLE live (k BIGINT, v STRING, PRIMARY KEY (k) NOT ENFORCED)"
                        + " WITH ('bucket' = '2')");
        TableEnvironment streaming = catalog(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("execution.checkpointing.interval", "300 ms");
        streaming.executeSql(
                "CREATE TEMPORARY TABLE gen (k BIGINT, v STRING) WITH ('connector' = 'datagen',"
                        + " 'rows-per-second' = '200', 'fields.k.kind' = 'sequence',"
                        + " 'fields.k.start' = '1', 'fields.k.end' = '1200')");
        TableResult job = streaming.executeSql("INSERT INTO live SELECT k, v FROM gen");
        awaitCommits("live", 1);
        sql.executeSql("ALTER TABLE live ADD extra INT").await();
        long altered = table("live").currentSnapshot().id();
        job.await();

        // The job's commits after the change added files of the version it was planned with.
        Table live = table("live");
        List<DataFile> appended = new ArrayList<>();
        for (long id = altered + 1; id <= live.currentSnapshot().id(); id++) {
            Commit commit = live.commit(id);
            if (commit.kind() == CommitKind.APPEND) {
                appended.addAll(commit.added());
            }
        }
        assertThat(appended).isNotEmpty().allMatch(f -> f.schemaId() == 0);
        assertThat(rows("SELECT COUNT(*), COUNT(extra), MIN(k), MAX(k) FROM live"))
                .containsExactly("+I[1200, 0, 1, 1200]");
        // A new job sees the new column.
        insert("INSERT INTO live VALUES (5000, 'new', 7)");
        assertThat(rows("SELECT k, extra FROM live WHERE extra IS NOT NULL"))
                .containsExactly("+I[5000, 7]");
    }

    @Test
    void aStreamingReadKeepsItsColumnsAfterAColumnIsAddedAndWidened() throws Exception {
        sql.executeSql("CREATE TABLE s (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)");
        insert("INSERT INTO s VALUES (1, 10)");
        TableEnvironment streaming = catalog(EnvironmentSettings.inStreamingMode());
        TableResult result = streaming.executeSql("SELECT * FROM s");
        try (CloseableIterator<Row> rows = result.collect()) {
            assertThat(rows.next().toString()).isEqualTo("+I[1, 10]");
            sql.executeSql("ALTER TABLE s ADD n STRING").await();
            insert("INSERT INTO s VALUES (2, 20, 'new')");
            assertThat(rows.next().toString()).isEqualTo("+I[2, 20]");
            // A widened value cannot be read back as the job's INT: the job fails, naming it.
            sql.executeSql("ALTER TABLE s MODIFY v BIGINT").await();
            insert("INSERT INTO s VALUES (3, 30000000000, 'wide')");
            assertThatThrownBy(rows::next)
                    .satisfies(
                            e ->
                                    assertThat(causes(e))
                                            .anyMatch(
                                                    m ->
                                                            m.contains(
                                                                    "its column 'v' is BIGINT,"
                                                                            + " which cannot be read"
                                                                            + " as INT")));
        }
    }

    private static List<String> causes(Throwable e) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause()) {
            messages.add(String.valueOf(t.getMessage()));
        }
        return messages;
    }

    private void awaitCommits(String name, long commits) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (table(name).currentSnapshot().id() < commits) {
            assertThat(System.currentTimeMillis()).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static String utc(long millis) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC)
                .toString()
                .replace('T', ' ');
    }

    private void insert(String statement) throws Exception {
        sql.executeSql(statement).await();
    }

    private String single(String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
            it.forEachRemaining(r -> rows.add(String.valueOf(r.getField(0))));
        }
        assertThat(rows).hasSize(1);
        return rows.get(0);
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
