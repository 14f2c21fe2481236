package io.weir.flink.catalog;

import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.types.RowType;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CollectionUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code t$commits} and {@code t$files} through SQL, against commits made with the core API: two
 * appends, a compaction and a partition overwrite of a table with one bucket per partition (so each
 * commit's files are known exactly).
 */
class SystemTablesTest {
    /** One cluster for all queries: a local TableEnvironment would start one per query. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path warehouse;
    private TableEnvironment env;
    private Table table;

    @BeforeEach
    void setUp() {
        env =
                StreamTableEnvironment.create(
                        StreamExecutionEnvironment.getExecutionEnvironment(),
                        EnvironmentSettings.inBatchMode());
        env.executeSql(
                "CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '" + warehouse + "')");
        env.executeSql("CREATE DATABASE c.db");
        env.executeSql(
                "CREATE TABLE c.db.t (id BIGINT, dt STRING, v INT, PRIMARY KEY (id, dt) NOT"
                        + " ENFORCED) PARTITIONED BY (dt) WITH ('bucket' = '1')");
        table = Tables.load(warehouse.resolve("db.db/t").toString());
    }

    @Test
    void aNewTableHasNoCommitsAndNoFiles() {
        assertThat(query("SELECT * FROM c.db.`t$commits`")).isEmpty();
        assertThat(query("SELECT * FROM c.db.`t$files`")).isEmpty();
    }

    @Test
    void commitsShowEachCommitWithItsFileAndRecordCounts() {
        makeCommits();
        // SQL promises no order without ORDER BY: the planner may rebalance the source's rows.
        assertThat(query("SELECT * FROM c.db.`t$commits` ORDER BY commit_id"))
                .containsExactly(
                        row(1L, time(1), "APPEND", 3L, 0L, 2, 0, "w1", 1L),
                        row(2L, time(2), "APPEND", 2L, 0L, 2, 0, "w1", 2L),
                        // The compaction folds 2 + 1 records of partition a and 1 + 1 of b.
                        row(3L, time(3), "COMPACT", 4L, 5L, 2, 4, null, null),
                        // The overwrite of b replaces its base (2 records) with 1 record.
                        row(4L, time(4), "OVERWRITE", 1L, 2L, 1, 1, "w2", 7L));
        assertThat(
                        query(
                                "SELECT commit_kind, SUM(records_added - records_removed) FROM"
                                        + " c.db.`t$commits` GROUP BY commit_kind"))
                .containsExactlyInAnyOrder(
                        row("APPEND", 5L), row("COMPACT", -1L), row("OVERWRITE", -1L));
    }

    @Test
    void filesShowTheLiveFilesOfTheLatestSnapshot() throws Exception {
        makeCommits();
        DataFile baseOfA = table.commit(3).added().get(0);
        DataFile logOfB = table.commit(4).added().get(0);
        assertThat(baseOfA.partition()).isEqualTo(Partition.of("a"));
        assertThat(baseOfA.kind()).isEqualTo(FileKind.BASE);
        assertThat(logOfB.kind()).isEqualTo(FileKind.LOG);
        assertThat(query("SELECT * FROM c.db.`t$files` ORDER BY partition_path"))
                .containsExactly(
                        row(
                                baseOfA.path(),
                                "dt=a",
                                0,
                                "BASE",
                                size(baseOfA),
                                2L,
                                baseOfA.sequence()),
                        row(logOfB.path(), "dt=b", 0, "LOG", size(logOfB), 1L, logOfB.sequence()));
    }

    @Test
    void systemTablesAreReadOnlyAndKnownByName() {
        assertThatThrownBy(() -> query("SELECT * FROM c.db.`t$snapshots`"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Table db.t has no system table 'snapshots'; its"
                                                        + " system tables are [commits, files]"));
        assertThatThrownBy(() -> query("SELECT * FROM c.db.`u$commits`"))
                .hasMessageContaining("Object 'u$commits' not found");
        assertThatThrownBy(
                        () ->
                                env.executeSql(
                                        "INSERT INTO c.db.`t$files` VALUES ('p', '', 0, 'LOG', 1,"
                                                + " 1, 1)"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Cannot write to c.db.t$files: system tables are"
                                                        + " read-only"));
        assertThat(query("SHOW TABLES IN c.db")).containsExactly(row("t"));
    }

    private void makeCommits() {
        append("w1", 1, row(1L, "a", 10), row(2L, "a", 20), row(3L, "b", 30));
        append("w1", 2, row(1L, "a", 11), row(4L, "b", 40));
        assertThat(table.newCompaction().full().execute().commitId()).isEqualTo(3);
        table.newOverwrite()
                .overwritePartition(Partition.of("b"))
                .addFiles(write(row(5L, "b", 50)))
                .identity("w2", 7)
                .commit();
        table.refresh();
        assertThat(table.currentSnapshot().id()).isEqualTo(4);
    }

    private void append(String writer, long checkpoint, List<?>... rows) {
        table.newAppend().addFiles(write(rows)).identity(writer, checkpoint).commit();
    }

    private List<DataFile> write(List<?>... rows) {
        RowType type = table.schema().rowType();
        try (TableWrite write = table.newWrite().create()) {
            for (List<?> row : rows) {
                write.write(BinaryRowWriter.toRow(type, row.toArray()));
            }
            return write.prepareCommit();
        }
    }

    private Instant time(long commitId) {
        return Instant.ofEpochMilli(table.commit(commitId).timestampMillis());
    }

    private long size(DataFile file) throws Exception {
        return Files.size(Path.of(table.location()).resolve(file.path()));
    }

    private List<List<Object>> query(String sql) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row r : CollectionUtil.iteratorToList(env.executeSql(sql).collect())) {
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < r.getArity(); i++) {
                values.add(r.getField(i));
            }
            rows.add(values);
        }
        return rows;
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
