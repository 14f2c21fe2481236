package io.weir.flink.catalog;

import io.weir.DataFile;
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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fixture of the system tables' tests: SQL against commits made with the core API, two appends,
 * a compaction and a partition overwrite of a table with one bucket per partition (so each commit's
 * files are known exactly). Every expected value comes from the core API ({@link Table#commit},
 * {@link Table#snapshot}, the files on disk), never from the system tables' code.
 */
abstract class SystemTablesFixture {
    /** One cluster for all queries: a local TableEnvironment would start one per query. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path warehouse;
    TableEnvironment env;
    Table table;

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

    void makeCommits() {
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

    void append(String writer, long checkpoint, List<?>... rows) {
        table.newAppend().addFiles(write(rows)).identity(writer, checkpoint).commit();
    }

    List<DataFile> write(List<?>... rows) {
        RowType type = table.schema().rowType();
        try (TableWrite write = table.newWrite().create()) {
            for (List<?> row : rows) {
                write.write(BinaryRowWriter.toRow(type, row.toArray()));
            }
            return write.prepareCommit();
        }
    }

    List<Object> fileRow(DataFile f) throws Exception {
        return row(
                f.path(),
                f.partition().path(List.of("dt")),
                f.bucket(),
                f.kind().name(),
                size(f),
                f.recordCount(),
                f.sequence(),
                f.schemaId());
    }

    long sizes(List<DataFile> files) throws Exception {
        long total = 0;
        for (DataFile f : files) {
            total += size(f);
        }
        return total;
    }

    Instant time(long commitId) {
        return Instant.ofEpochMilli(table.commit(commitId).timestampMillis());
    }

    long size(DataFile file) throws Exception {
        return Files.size(Path.of(table.location()).resolve(file.path()));
    }

    List<List<Object>> query(String sql) {
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

    static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
