package io.weir.flink.catalog;

import io.weir.DataFile;
import io.weir.SnapshotLease;
import io.weir.TableMetadata;
import io.weir.Tag;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every system table after snapshots expired, and a tag that keeps one readable. */
class ExpiredSnapshotsSystemTablesTest extends SystemTablesFixture {
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
}
