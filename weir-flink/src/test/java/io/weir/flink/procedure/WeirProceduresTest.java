package io.weir.flink.procedure;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CollectionUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The table services called from Flink SQL, on a table written by Flink SQL. */
class WeirProceduresTest {
    @TempDir Path warehouse;
    private TableEnvironment env;
    private final Map<Long, String> model = new TreeMap<>();

    @BeforeEach
    void setUp() {
        env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", "2");
        sql("CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '" + warehouse.toUri() + "')");
        sql("CREATE DATABASE c.db");
        sql(
                "CREATE TABLE c.db.t (id BIGINT, dt STRING, v STRING, PRIMARY KEY (id, dt) NOT"
                        + " ENFORCED) PARTITIONED BY (dt) WITH ('bucket' = '2', 'write-only' ="
                        + " 'true')");
    }

    @Test
    void compactFoldsEveryLogIntoBaseFilesAndKeepsTheRows() {
        writeRounds(4);
        assertThat(fileKinds()).containsOnly("LOG");
        assertThat(query("SHOW PROCEDURES FROM c.db"))
                .extracting(r -> r.getField(0))
                .contains(
                        "compact",
                        "expire_snapshots",
                        "expire_partitions",
                        "remove_orphan_files",
                        "rollback_to",
                        "rescale",
                        "create_tag",
                        "delete_tag");

        long groupsOfA = groups("dt=a");
        long groupsOfB = groups("dt=b");
        assertThat(groupsOfA).as("keys spread over both buckets").isEqualTo(2);

        // Only one partition, and only groups with at least 3 logs: every group has 4.
        List<Row> partial =
                query(
                        "CALL c.sys.compact(`table` => 'db.t', `partition` => 'dt=a',"
                                + " min_log_files => 3)");
        assertThat(partial).hasSize(1);
        assertThat(partial.get(0).getField(0)).isEqualTo((int) groupsOfA);
        assertThat(partial.get(0).getField(1)).isEqualTo(4 * groupsOfA);
        assertThat(partial.get(0).getField(3)).isEqualTo(5L);
        assertThat(query("SELECT partition_path, file_kind FROM c.db.`t$files`"))
                .extracting(Row::toString)
                .allMatch(r -> r.contains("dt=a") == r.contains("BASE"));

        List<Row> full = query("CALL c.sys.compact('db.t', CAST(NULL AS STRING), 'full')");
        assertThat(full.get(0).getField(0)).isEqualTo((int) groupsOfB);
        assertThat(full.get(0).getField(3)).isEqualTo(6L);
        assertThat(fileKinds()).containsOnly("BASE");
        assertThat(tableRows()).isEqualTo(model);

        List<Row> nothing =
                query("CALL c.sys.compact(`table` => 'db.t', compact_strategy => 'full')");
        assertThat(nothing.get(0)).isEqualTo(Row.of(0, 0L, 0L, null));
    }

    @Test
    void expireSnapshotsKeepsTheLatestAndDeletesWhatOnlyOldSnapshotsNeeded() {
        writeRounds(3);
        int logs = fileKinds().size();
        query("CALL c.sys.compact(`table` => 'db.t', compact_strategy => 'full')");
        Row preview =
                query(
                                "CALL c.sys.expire_snapshots(`table` => 'db.t', retain_last => 1,"
                                        + " older_than => '0 s', dry_run => true)")
                        .get(0);
        assertThat(preview.getField(0)).isEqualTo(4L);
        assertThat(query("SELECT COUNT(*) FROM c.db.t /*+ OPTIONS('scan.snapshot-id' = '1') */"))
                .as("a dry run changes nothing")
                .containsExactly(Row.of(16L));

        Row done =
                query(
                                "CALL c.sys.expire_snapshots(`table` => 'db.t', retain_last => 1,"
                                        + " older_than => '0 s')")
                        .get(0);
        assertThat(done).isEqualTo(preview);
        assertThat(done.getField(1)).isEqualTo(4L);
        assertThat(done.getField(2)).as("the replaced log files").isEqualTo(logs);
        assertThat(tableRows()).isEqualTo(model);
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM c.db.t /*+ OPTIONS('scan.snapshot-id' ="
                                                + " '1') */"))
                .satisfies(e -> assertThat(messages(e)).contains("earliest retained commit is 4"));
    }

    @Test
    void rollbackToRepairsATableWhoseNewestCommitIsDamaged() throws IOException {
        writeRounds(3);
        Map<Long, String> atTwo = new TreeMap<>();
        for (Row r :
                query("SELECT id, dt, v FROM c.db.t /*+ OPTIONS('scan.snapshot-id' = '2') */")) {
            atTwo.put((Long) r.getField(0), r.getField(1) + "/" + r.getField(2));
        }
        java.nio.file.Path commit3;
        try (var files = java.nio.file.Files.walk(warehouse)) {
            commit3 =
                    files.filter(f -> f.toString().endsWith("commits/00000000000000000003.json"))
                            .findFirst()
                            .orElseThrow();
        }
        java.nio.file.Files.writeString(commit3, "{ damaged");
        assertThatThrownBy(() -> query("SELECT * FROM c.db.t"))
                .satisfies(e -> assertThat(messages(e)).contains("Corrupt file " + commit3));

        assertThat(query("CALL c.sys.rollback_to(`table` => 'db.t', snapshot_id => 2)"))
                .containsExactly(Row.of(2L, 4L));
        assertThat(tableRows()).isEqualTo(atTwo);
    }

    @Test
    void rescaleRewritesTheTableIntoTheNewBucketCount() {
        writeRounds(3);
        Map<Long, String> before = tableRows();
        long buckets =
                (Long)
                        query("SELECT COUNT(DISTINCT bucket) FROM c.db.`t$files`")
                                .get(0)
                                .getField(0);
        assertThat(buckets).isGreaterThan(1);
        assertThat(query("CALL c.sys.rescale('db.t', 1)"))
                .singleElement()
                .satisfies(r -> assertThat(r.getField(1)).isEqualTo(1));
        assertThat(tableRows()).isEqualTo(before);
        assertThat(query("SELECT DISTINCT bucket FROM c.db.`t$files`")).containsExactly(Row.of(0));
        writeRounds(1);
        assertThat(query("SELECT DISTINCT bucket FROM c.db.`t$files`")).containsExactly(Row.of(0));
    }

    @Test
    void rescaleOfOnePartitionWithPaimonsNamedArguments() {
        writeRounds(3);
        Map<Long, String> before = tableRows();
        List<Row> filesOfA =
                query("SELECT file_path FROM c.db.`t$files` WHERE partition_path = 'dt=a'");
        assertThat(
                        query(
                                "CALL c.sys.rescale(`table` => 'db.t', `bucket_num` => 5,"
                                        + " `partition` => 'dt=b')"))
                .containsExactly(Row.of(2, 5, 4L));
        assertThat(tableRows()).isEqualTo(before);
        assertThat(query("SELECT file_path FROM c.db.`t$files` WHERE partition_path = 'dt=a'"))
                .containsExactlyInAnyOrderElementsOf(filesOfA);
        assertThat(query("SELECT partition_path, total_buckets FROM c.db.`t$partitions`"))
                .containsExactlyInAnyOrder(Row.of("dt=a", 2), Row.of("dt=b", 5));
        assertThat(
                        query(
                                "SELECT partition_path, total_buckets FROM c.db.`t$partitions`"
                                        + " /*+ OPTIONS('scan.snapshot-id' = '3') */"))
                .containsExactlyInAnyOrder(Row.of("dt=a", 2), Row.of("dt=b", 2));

        // The table's option stays: a job writing the option's layout into dt=b fails its commit
        // and says what to do; dt=a takes writes.
        assertThatThrownBy(() -> writeRounds(1))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "of partition dt=b was written for 2 buckets, but"
                                                        + " the partition has 5 buckets (it was"
                                                        + " rescaled apart from the table, whose"
                                                        + " bucket option is 2)"));
        assertThat(tableRows()).as("nothing committed").isEqualTo(before);

        // Without bucket_num, back to the option (Paimon's default).
        assertThat(query("CALL c.sys.rescale(`table` => 'db.t', `partition` => 'dt=b')"))
                .containsExactly(Row.of(5, 2, 5L));
        model.clear();
        writeRounds(1);
        assertThat(tableRows()).isEqualTo(model);

        assertThatThrownBy(
                        () ->
                                query(
                                        "CALL c.sys.rescale(`table` => 'db.t', `bucket_num` => 3,"
                                                + " `partition` => 'dt=zz')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Cannot rescale partition dt=zz of table ",
                                                ": the table has no such partition as of commit"
                                                        + " 6"));
        assertThatThrownBy(() -> query("CALL c.sys.rescale(`table` => 'db.t')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Missing argument 'bucket_num' of procedure"
                                                        + " rescale"));
    }

    @Test
    void removeOrphanFilesDeletesOnlyOldUnreferencedFiles() throws IOException {
        writeRounds(1);
        Path table = warehouse.resolve("db.db").resolve("t");
        Path orphan = Files.writeString(table.resolve("dt=a").resolve("stray.log"), "partial");
        Files.setLastModifiedTime(
                orphan, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000L));
        Path young = Files.writeString(table.resolve("dt=a").resolve("young.log"), "partial");

        String call = "CALL c.sys.remove_orphan_files('db.t', '10 min'";
        assertThat(query(call + ", true)")).containsExactly(Row.of(orphan.toString()));
        assertThat(orphan).exists();
        assertThat(query(call + ")")).containsExactly(Row.of(orphan.toString()));
        assertThat(orphan).doesNotExist();
        assertThat(young).exists();
        assertThat(tableRows()).isEqualTo(model);

        // Younger than a minute, a file may belong to a write still to be committed.
        assertThatThrownBy(() -> query("CALL c.sys.remove_orphan_files('db.t', '0 s')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Invalid value '0 s' for argument 'older_than' of"
                                                        + " procedure remove_orphan_files: must be"
                                                        + " at least 1 min, so that the files of"
                                                        + " writes still to be committed survive"));
        assertThat(young).exists();
    }

    @Test
    void expirePartitionsDropsOldTimePartitionsInOneCommit() {
        sql(
                "CREATE TABLE c.db.events (id BIGINT, ts TIMESTAMP_LTZ(3), dt DATE, PRIMARY KEY"
                        + " (id, ts) NOT ENFORCED) PARTITIONED BY (dt) WITH"
                        + " ('partition.time.column' = 'ts')");
        long now = System.currentTimeMillis();
        sql(
                String.format(
                        "INSERT INTO c.db.events (id, ts) VALUES (1, TO_TIMESTAMP_LTZ(%d, 3)),"
                                + " (2, TO_TIMESTAMP_LTZ(%d, 3)), (3, TO_TIMESTAMP_LTZ(%d, 3))",
                        Instant.parse("2024-05-01T10:00:00Z").toEpochMilli(),
                        Instant.parse("2024-05-02T10:00:00Z").toEpochMilli(),
                        now));
        String call = "CALL c.sys.expire_partitions(`table` => 'db.events', older_than => '2 d'";
        List<Row> preview = query(call + ", dry_run => true)");
        assertThat(preview)
                .containsExactly(Row.of("dt=2024-05-01", null), Row.of("dt=2024-05-02", null));
        assertThat(query("SELECT id FROM c.db.events")).hasSize(3);

        assertThat(query(call + ")"))
                .containsExactly(Row.of("dt=2024-05-01", 2L), Row.of("dt=2024-05-02", 2L));
        assertThat(query("SELECT id FROM c.db.events")).containsExactly(Row.of(3L));
        assertThat(query(call + ")")).isEmpty();
    }

    @Test
    void rollbackToTakesACommitATagOrATime() {
        writeRounds(1);
        Map<Long, String> atOne = new TreeMap<>(model);
        writeRounds(1);
        Map<Long, String> atTwo = new TreeMap<>(model);
        writeRounds(1);
        assertThat(
                        query(
                                "CALL c.sys.create_tag(`table` => 'db.t', tag => 'first', snapshot_id => 1)"))
                .containsExactly(Row.of("first", 1L));

        // By tag: commit 1's files again, as commit 4.
        assertThat(query("CALL c.sys.rollback_to(`table` => 'db.t', tag => 'first')"))
                .containsExactly(Row.of(1L, 4L));
        assertThat(tableRows()).isEqualTo(atOne);
        // By time: the latest commit made at or before it, commit 2.
        String two = commitTime(2);
        assertThat(query("CALL c.sys.rollback_to(`table` => 'db.t', `timestamp` => '" + two + "')"))
                .containsExactly(Row.of(2L, 5L));
        assertThat(tableRows()).isEqualTo(atTwo);

        assertThatThrownBy(() -> query("CALL c.sys.rollback_to(`table` => 'db.t')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Procedure rollback_to needs exactly one of the"
                                                        + " arguments 'snapshot_id', 'tag' and"
                                                        + " 'timestamp'; got 0"));
        assertThatThrownBy(
                        () ->
                                query(
                                        "CALL c.sys.rollback_to(`table` => 'db.t', `timestamp` =>"
                                                + " 'yesterday')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Invalid value 'yesterday' for argument 'timestamp'"
                                                        + " of procedure rollback_to"));
        assertThatThrownBy(() -> query("CALL c.sys.create_tag('db.t', 'first')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .containsPattern(
                                                "Cannot create tag 'first' of table \\S*db.db/t: it"
                                                        + " exists already \\(on commit 1\\);"
                                                        + " delete it first"));
        assertThat(query("CALL c.sys.delete_tag('db.t', 'first')"))
                .as("commit 1's files are retained: nothing is deleted")
                .containsExactly(Row.of("first", 1L, 0));
    }

    /** The time of a commit as epoch millis text, from the core API. */
    private String commitTime(long commitId) {
        try (var files = java.nio.file.Files.walk(warehouse)) {
            java.nio.file.Path table =
                    files.filter(f -> f.endsWith("db.db/t")).findFirst().orElseThrow();
            return Long.toString(
                    io.weir.Tables.load(table.toString()).commit(commitId).timestampMillis());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void badArgumentsNameTheProcedureAndArgument() {
        assertThatThrownBy(() -> query("CALL c.sys.compact('db.nope')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("Table db.nope does not exist in catalog c"));
        assertThatThrownBy(
                        () ->
                                query(
                                        "CALL c.sys.expire_snapshots(`table` => 'db.t',"
                                                + " older_than => 'soon')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Invalid value 'soon' for argument 'older_than' of"
                                                        + " procedure expire_snapshots"));
        assertThatThrownBy(
                        () ->
                                query(
                                        "CALL c.sys.compact(`table` => 'db.t', compact_strategy"
                                                + " => 'full', min_log_files => 2)"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "either compact_strategy 'full' or"
                                                        + " 'min_log_files', not both"));
        assertThatThrownBy(() -> query("CALL c.sys.vacuum('db.t')"))
                .satisfies(e -> assertThat(messages(e)).contains("vacuum"));
    }

    private long groups(String partition) {
        return (Long)
                query(
                                "SELECT COUNT(DISTINCT bucket) FROM c.db.`t$files` WHERE"
                                        + " partition_path = '"
                                        + partition
                                        + "'")
                        .get(0)
                        .getField(0);
    }

    /**
     * Writes {@code rounds} INSERTs of keys 0..15 over partitions a and b: a log per group each.
     */
    private void writeRounds(int rounds) {
        for (int round = 0; round < rounds; round++) {
            List<String> values = new ArrayList<>();
            for (long id = 0; id < 16; id++) {
                String dt = id % 2 == 0 ? "a" : "b";
                String v = "r" + round + "-" + id;
                values.add(String.format("(%d, '%s', '%s')", id, dt, v));
                model.put(id, dt + "/" + v);
            }
            // Upserts write a log per file group; a batch INSERT would bulk insert base files.
            sql(
                    "INSERT INTO c.db.t /*+ OPTIONS('write.mode' = 'upsert') */ VALUES "
                            + String.join(", ", values));
        }
    }

    private Map<Long, String> tableRows() {
        Map<Long, String> rows = new TreeMap<>();
        for (Row r : query("SELECT id, dt, v FROM c.db.t")) {
            rows.put((Long) r.getField(0), r.getField(1) + "/" + r.getField(2));
        }
        return rows;
    }

    private List<String> fileKinds() {
        return query("SELECT file_kind FROM c.db.`t$files`").stream()
                .map(r -> (String) r.getField(0))
                .toList();
    }

    private void sql(String statement) {
        try {
            env.executeSql(statement).await();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    private List<Row> query(String statement) {
        return CollectionUtil.iteratorToList(env.executeSql(statement).collect());
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}
