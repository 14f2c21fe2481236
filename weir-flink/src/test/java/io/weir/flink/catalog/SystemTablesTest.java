package io.weir.flink.catalog;

import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.SnapshotLease;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.Tag;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The system tables through SQL, against commits made with the core API: two appends, a compaction
 * and a partition overwrite of a table with one bucket per partition (so each commit's files are
 * known exactly). Every expected value comes from the core API ({@link Table#commit}, {@link
 * Table#snapshot}, the files on disk), never from the system tables' code.
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
    void aNewTableHasOnlyItsSchemaAndOptions() {
        for (String empty :
                List.of(
                        "commits",
                        "snapshots",
                        "files",
                        "partitions",
                        "buckets",
                        "consumers",
                        "tags",
                        "ro",
                        "audit_log")) {
            assertThat(query("SELECT * FROM c.db.`t$" + empty + "`")).as(empty).isEmpty();
        }
        assertThat(query("SELECT schema_id, partition_keys, primary_keys FROM c.db.`t$schemas`"))
                .containsExactly(row(0, "[\"dt\"]", "[\"id\",\"dt\"]"));
        assertThat(query("SELECT * FROM c.db.`t$options`")).containsExactly(row("bucket", "1"));
    }

    @Test
    void commitsShowEachCommitWithItsFileAndRecordCounts() throws Exception {
        makeCommits();
        long baseA = size(table.commit(3).added().get(0));
        long baseB = size(table.commit(3).added().get(1));
        long logB = size(table.commit(4).added().get(0));
        long logs1 = sizes(table.commit(1).added());
        long logs2 = sizes(table.commit(2).added());
        // SQL promises no order without ORDER BY: the planner may rebalance the source's rows.
        List<List<Object>> all =
                List.of(
                        row(1L, time(1), "APPEND", 3L, 0L, 2, 0, "w1", 1L, 0, null, 2L, 3L, logs1),
                        row(
                                2L,
                                time(2),
                                "APPEND",
                                2L,
                                0L,
                                2,
                                0,
                                "w1",
                                2L,
                                0,
                                null,
                                4L,
                                5L,
                                logs1 + logs2),
                        // The compaction folds 2 + 1 records of partition a and 1 + 1 of b.
                        row(
                                3L,
                                time(3),
                                "COMPACT",
                                4L,
                                5L,
                                2,
                                4,
                                null,
                                null,
                                0,
                                null,
                                2L,
                                4L,
                                baseA + baseB),
                        // The overwrite of b replaces its base (2 records) with 1 record.
                        row(
                                4L,
                                time(4),
                                "OVERWRITE",
                                1L,
                                2L,
                                1,
                                1,
                                "w2",
                                7L,
                                0,
                                null,
                                2L,
                                3L,
                                baseA + logB));
        assertThat(query("SELECT * FROM c.db.`t$commits` ORDER BY commit_id")).isEqualTo(all);
        assertThat(query("SELECT * FROM c.db.`t$snapshots` ORDER BY commit_id")).isEqualTo(all);
        assertThat(
                        query(
                                "SELECT commit_kind, SUM(records_added - records_removed) FROM"
                                        + " c.db.`t$commits` GROUP BY commit_kind"))
                .containsExactlyInAnyOrder(
                        row("APPEND", 5L), row("COMPACT", -1L), row("OVERWRITE", -1L));
        // As of snapshot 2, by id or by tag.
        table.tags().create("two", 2);
        for (String option : List.of("'scan.snapshot-id' = '2'", "'scan.tag-name' = 'two'")) {
            assertThat(
                            query(
                                    "SELECT * FROM c.db.`t$commits` /*+ OPTIONS("
                                            + option
                                            + ") */ ORDER BY commit_id"))
                    .isEqualTo(all.subList(0, 2));
        }
    }

    /** A damaged commit that a rollback abandoned (the repair of a table) has no row. */
    @Test
    void commitsLeaveOutADamagedCommitThatARollbackAbandoned() throws Exception {
        makeCommits();
        long bases = sizes(table.commit(3).added());
        List<List<Object>> kept =
                new ArrayList<>(query("SELECT * FROM c.db.`t$commits` WHERE commit_id <= 3"));
        kept.sort(java.util.Comparator.comparing(r -> (Long) r.get(0)));
        Files.writeString(
                Path.of(table.location(), "_weir/commits/00000000000000000004.json"), "{ damaged");
        Table damaged = Tables.load(table.location());
        assertThat(damaged.rollbackTo(3).id()).isEqualTo(5);

        List<List<Object>> expected = new ArrayList<>(kept);
        expected.add(
                row(
                        5L,
                        Instant.ofEpochMilli(damaged.commit(5).timestampMillis()),
                        "ROLLBACK",
                        0L,
                        0L,
                        0,
                        0,
                        null,
                        null,
                        0,
                        3L,
                        2L,
                        4L,
                        bases));
        assertThat(query("SELECT * FROM c.db.`t$commits` ORDER BY commit_id")).isEqualTo(expected);
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
                .containsExactly(fileRow(baseOfA), fileRow(logOfB));
    }

    @Test
    void filesPartitionsAndBucketsHonourTheSnapshotOption() throws Exception {
        makeCommits();
        List<DataFile> two = new ArrayList<>(table.commit(1).added());
        two.addAll(table.commit(2).added());
        List<List<Object>> expected = new ArrayList<>();
        for (DataFile f : two) {
            expected.add(fileRow(f));
        }
        assertThat(
                        query(
                                "SELECT * FROM c.db.`t$files` /*+ OPTIONS('scan.snapshot-id' ="
                                        + " '2') */"))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(
                        query(
                                "SELECT * FROM c.db.`t$files` /*+ OPTIONS('scan.timestamp' = '"
                                        + table.commit(2).timestampMillis()
                                        + "') */"))
                .containsExactlyInAnyOrderElementsOf(expected);
        // Snapshot 2: partition a has a log of each append, b too.
        List<DataFile> a =
                two.stream().filter(f -> f.partition().equals(Partition.of("a"))).toList();
        List<DataFile> b =
                two.stream().filter(f -> f.partition().equals(Partition.of("b"))).toList();
        assertThat(
                        query(
                                "SELECT * FROM c.db.`t$buckets` /*+ OPTIONS('scan.snapshot-id' ="
                                        + " '2') */ ORDER BY partition_path"))
                .containsExactly(
                        row("dt=a", 0, 0, 2, 3L, sizes(a), time(2)),
                        row("dt=b", 0, 0, 2, 2L, sizes(b), time(2)));
        assertThat(
                        query(
                                "SELECT * FROM c.db.`t$partitions` /*+ OPTIONS('scan.snapshot-id' ="
                                        + " '1') */ ORDER BY partition_path"))
                .containsExactly(
                        row("dt=a", 2L, size(table.commit(1).added().get(0)), 1L, time(1), 1),
                        row("dt=b", 1L, size(table.commit(1).added().get(1)), 1L, time(1), 1));
    }

    /**
     * Once snapshots have expired, every system table still reads: the history starts at the
     * earliest retained commit, and a tag keeps its snapshot (and its files) readable.
     */
    @Test
    void everySystemTableReadsAfterSnapshotsExpired() throws Exception {
        makeCommits();
        assertThat(query("CALL c.sys.create_tag('db.t', 'v2', 2)")).containsExactly(row("v2", 2L));
        Instant time2 = time(2);
        Instant time3 = time(3);
        List<DataFile> tagged = table.snapshot(2).files();
        SnapshotLease lease = table.leases().acquire("reader-1", 3, Duration.ofHours(1));
        assertThat(
                        query(
                                "CALL c.sys.expire_snapshots(`table` => 'db.t', retain_last => 2,"
                                        + " older_than => '0 ms')"))
                .containsExactly(row(3L, 3L, 0, 2));
        assertThat(table.earliestRetainedCommit()).isEqualTo(3);
        for (DataFile f : tagged) {
            assertThat(Path.of(table.location(), f.path())).as("kept by the tag").exists();
        }
        DataFile baseOfA = table.commit(3).added().get(0);
        DataFile baseOfB = table.commit(3).added().get(1);
        DataFile logOfB = table.commit(4).added().get(0);
        long baseA = size(baseOfA);

        // Commit 3's removed records are unknown: the state before it has expired.
        List<List<Object>> commits =
                List.of(
                        row(
                                3L,
                                time3,
                                "COMPACT",
                                4L,
                                null,
                                2,
                                4,
                                null,
                                null,
                                0,
                                null,
                                2L,
                                4L,
                                baseA + size(baseOfB)),
                        row(
                                4L,
                                time(4),
                                "OVERWRITE",
                                1L,
                                2L,
                                1,
                                1,
                                "w2",
                                7L,
                                0,
                                null,
                                2L,
                                3L,
                                baseA + size(logOfB)));
        assertThat(query("SELECT * FROM c.db.`t$commits` ORDER BY commit_id")).isEqualTo(commits);
        assertThat(query("SELECT * FROM c.db.`t$snapshots` ORDER BY commit_id")).isEqualTo(commits);
        assertThat(query("SELECT * FROM c.db.`t$files` ORDER BY partition_path"))
                .containsExactly(fileRow(baseOfA), fileRow(logOfB));
        assertThat(query("SELECT * FROM c.db.`t$partitions` ORDER BY partition_path"))
                .containsExactly(
                        row("dt=a", 2L, baseA, 1L, time3, 1),
                        row("dt=b", 1L, size(logOfB), 1L, time(4), 1));
        assertThat(query("SELECT * FROM c.db.`t$buckets` ORDER BY partition_path"))
                .containsExactly(
                        row("dt=a", 0, 1, 0, 2L, baseA, time3),
                        row("dt=b", 0, 0, 1, 1L, size(logOfB), time(4)));
        TableMetadata schema = table.metadata(0);
        assertThat(query("SELECT * FROM c.db.`t$schemas`"))
                .containsExactly(
                        row(
                                0,
                                "[{\"id\":0,\"name\":\"id\",\"type\":\"BIGINT NOT NULL\"},"
                                        + "{\"id\":1,\"name\":\"dt\",\"type\":\"STRING NOT"
                                        + " NULL\"},{\"id\":2,\"name\":\"v\",\"type\":\"INT\"}]",
                                "[\"dt\"]",
                                "[\"id\",\"dt\"]",
                                "{\"bucket\":\"1\"}",
                                null,
                                Instant.ofEpochMilli(schema.createdMillis())));
        assertThat(query("SELECT * FROM c.db.`t$options`")).containsExactly(row("bucket", "1"));
        assertThat(query("SELECT * FROM c.db.`t$consumers`"))
                .containsExactly(
                        row("reader-1", 3L, Instant.ofEpochMilli(lease.expiresMillis()), true));
        Tag tag = table.tags().get("v2");
        assertThat(query("SELECT * FROM c.db.`t$tags`"))
                .containsExactly(
                        row("v2", 2L, 0, time2, Instant.ofEpochMilli(tag.createdMillis()), 4L, 5L));
        // Read-optimized: only the base files; b's rows are in a log since the overwrite.
        assertThat(query("SELECT * FROM c.db.`t$ro`"))
                .containsExactlyInAnyOrder(row(1L, "a", 11), row(2L, "a", 20));
        assertThat(query("SELECT * FROM c.db.`t$audit_log`"))
                .containsExactlyInAnyOrder(
                        row("+I", 1L, "a", 11), row("+I", 2L, "a", 20), row("+I", 5L, "b", 50));
        assertThat(
                        query(
                                "SELECT * FROM c.db.`t$audit_log` /*+"
                                        + " OPTIONS('scan.incremental.between' = '3,4') */"))
                .containsExactlyInAnyOrder(
                        row("-D", 3L, "b", 30), row("-D", 4L, "b", 40), row("+I", 5L, "b", 50));
        // The changes from a time: found from the retained commits, although commit 1 is gone.
        assertThat(
                        query(
                                "SELECT * FROM c.db.`t$audit_log` /*+ OPTIONS('scan.mode' ="
                                        + " 'from-snapshot', 'scan.timestamp' = '"
                                        + time(4).toEpochMilli()
                                        + "') */"))
                .containsExactlyInAnyOrder(
                        row("-D", 3L, "b", 30), row("-D", 4L, "b", 40), row("+I", 5L, "b", 50));

        // The tagged snapshot, although its commit expired: the table, and its metadata.
        List<List<Object>> atTwo =
                List.of(row(1L, "a", 11), row(2L, "a", 20), row(3L, "b", 30), row(4L, "b", 40));
        assertThat(query("SELECT * FROM c.db.t /*+ OPTIONS('scan.tag-name' = 'v2') */"))
                .containsExactlyInAnyOrderElementsOf(atTwo);
        assertThat(query("SELECT * FROM c.db.t /*+ OPTIONS('scan.snapshot-id' = '2') */"))
                .containsExactlyInAnyOrderElementsOf(atTwo);
        List<List<Object>> tagFiles = new ArrayList<>();
        for (DataFile f : tagged) {
            tagFiles.add(fileRow(f));
        }
        assertThat(query("SELECT * FROM c.db.`t$files` /*+ OPTIONS('scan.tag-name' = 'v2') */"))
                .containsExactlyInAnyOrderElementsOf(tagFiles);
        assertThat(query("SELECT * FROM c.db.`t$commits` /*+ OPTIONS('scan.tag-name' = 'v2') */"))
                .as("commits 1 and 2 have expired")
                .isEmpty();
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM c.db.`t$files` /*+"
                                                + " OPTIONS('scan.snapshot-id' = '1') */"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Cannot read commit 1 of table "
                                                        + table.location()
                                                        + ": it has expired (the earliest retained"
                                                        + " commit is 3)"));

        // Deleting the tag deletes the files only it needed: the logs the compaction replaced.
        assertThat(query("CALL c.sys.delete_tag('db.t', 'v2')")).containsExactly(row("v2", 2L, 4));
        for (DataFile f : tagged) {
            assertThat(Path.of(table.location(), f.path())).doesNotExist();
        }
        assertThat(query("SELECT * FROM c.db.`t$tags`")).isEmpty();
    }

    @Test
    void systemTablesAreReadOnlyAndKnownByName() {
        assertThatThrownBy(() -> query("SELECT * FROM c.db.`t$history`"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Table db.t has no system table 'history'; its"
                                                        + " system tables are [commits, snapshots,"
                                                        + " files, schemas, options, partitions,"
                                                        + " buckets, consumers, tags, ro,"
                                                        + " audit_log]"));
        assertThatThrownBy(() -> query("SELECT * FROM c.db.`u$commits`"))
                .hasMessageContaining("Object 'u$commits' not found");
        assertThatThrownBy(
                        () ->
                                env.executeSql(
                                        "INSERT INTO c.db.`t$files` VALUES ('p', '', 0, 'LOG', 1,"
                                                + " 1, 1, 0)"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Cannot write to c.db.t$files: system tables are"
                                                        + " read-only"));
        assertThat(query("SHOW TABLES IN c.db")).containsExactly(row("t"));
    }

    @Test
    void badOptionsNameTheSystemTableAndWhatIsAllowed() {
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM c.db.`t$files` /*+ OPTIONS('scan.mode' = 'latest') */"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Unsupported option 'scan.mode' for system table"
                                                        + " db.t$files: it takes only"
                                                        + " [scan.snapshot-id, scan.tag-name,"
                                                        + " scan.timestamp], one of them"));
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM c.db.`t$schemas` /*+"
                                                + " OPTIONS('scan.snapshot-id' = '1') */"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Unsupported option 'scan.snapshot-id' for system"
                                                        + " table db.t$schemas: it takes no"
                                                        + " options"));
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM c.db.`t$files` /*+"
                                                + " OPTIONS('scan.snapshot-id' = 'x') */"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Invalid value 'x' for option 'scan.snapshot-id' of"
                                                        + " system table db.t$files: expected a"
                                                        + " commit id >= 0"));
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM c.db.`t$files` /*+"
                                                + " OPTIONS('scan.tag-name' = 'nope') */"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Cannot find tag 'nope' of table "
                                                        + table.location()
                                                        + "; its tags are []"));
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

    private List<Object> fileRow(DataFile f) throws Exception {
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

    private long sizes(List<DataFile> files) throws Exception {
        long total = 0;
        for (DataFile f : files) {
            total += size(f);
        }
        return total;
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
