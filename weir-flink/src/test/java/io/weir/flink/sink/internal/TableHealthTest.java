package io.weir.flink.sink.internal;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.flink.source.TestTable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table-health figures against a real table's snapshots: log files in all and in the worst file
 * group, the age of the oldest live log as commits and compactions come and go, and the age of the
 * last commit (on a clock the test sets).
 */
class TableHealthTest {
    @TempDir Path dir;

    private final AtomicLong now = new AtomicLong(1_000);
    private final TableHealth health = new TableHealth(now::get);

    @Test
    void followsLogsThroughCommitsAndCompactions() throws InterruptedException {
        TestTable t = new TestTable(dir);
        Table table = t.table;
        Random random = new Random(1);
        assertThat(health.lastCommitAgeMillis()).isZero();
        now.addAndGet(700);
        assertThat(health.lastCommitAgeMillis()).as("since the committer started").isEqualTo(700);

        t.randomChanges(random, 200, 100);
        long first = t.commit();
        Thread.sleep(3); // distinct commit timestamps
        t.randomChanges(random, 200, 100);
        long second = t.commit();
        // A committer that starts now has seen neither commit: it reads back to the first.
        now.set(table.commit(second).timestampMillis() + 50);
        health.update(table, table.commit(second));
        assertFigures(table.currentSnapshot());
        assertThat(health.oldestLogAgeMillis())
                .isEqualTo(now.get() - table.commit(first).timestampMillis());
        assertThat(health.lastCommitAgeMillis()).as("by the commit's timestamp").isEqualTo(50);
        now.addAndGet(40);
        assertThat(health.lastCommitAgeMillis()).isEqualTo(90);

        t.compact(); // every log into base files
        Thread.sleep(3);
        t.randomChanges(random, 50, 100);
        long third = t.commit();
        Commit thirdCommit = table.commit(third);
        now.set(thirdCommit.timestampMillis() + 10);
        health.update(table, thirdCommit);
        assertFigures(table.currentSnapshot());
        assertThat(health.oldestLogAgeMillis())
                .as("only the third commit's logs are left")
                .isEqualTo(10);

        t.compact();
        Commit compacted = table.commit(table.currentSnapshot().id());
        health.update(table, compacted);
        assertThat(health.logFiles()).isZero();
        assertThat(health.maxLogFilesPerFileGroup()).isZero();
        assertThat(health.oldestLogAgeMillis()).as("no log waits").isZero();

        // The log file of an incremental compaction (merged newest runs) waits for nothing.
        for (int i = 0; i < 2; i++) {
            Thread.sleep(3);
            t.randomChanges(random, 10, 100);
            t.commit();
        }
        assertThat(table.newCompaction().minLogFiles(2).execute()).isNotNull();
        table.refresh();
        List<String> runs =
                table.commit(table.currentSnapshot().id()).added().stream()
                        .filter(f -> f.kind() == FileKind.LOG)
                        .map(DataFile::path)
                        .toList();
        assertThat(runs).as("merged runs written as log files").isNotEmpty();
        Thread.sleep(3);
        t.randomChanges(random, 10, 100);
        Commit fourth = table.commit(t.commit());
        now.set(fourth.timestampMillis() + 7);
        health.update(table, fourth);
        long waiting =
                table.currentSnapshot().files().stream()
                        .filter(f -> f.kind() == FileKind.LOG && !runs.contains(f.path()))
                        .count();
        assertThat(health.logFiles()).isEqualTo(waiting).isPositive();
        assertThat(health.oldestLogAgeMillis())
                .as("only the fourth commit's logs wait")
                .isEqualTo(7);
    }

    private void assertFigures(Snapshot snapshot) {
        List<DataFile> logs =
                snapshot.files().stream().filter(f -> f.kind() == FileKind.LOG).toList();
        long worst =
                snapshot.fileGroups().values().stream()
                        .mapToLong(g -> g.stream().filter(f -> f.kind() == FileKind.LOG).count())
                        .max()
                        .orElse(0);
        assertThat(health.logFiles()).isEqualTo(logs.size()).isPositive();
        assertThat(health.maxLogFilesPerFileGroup()).isEqualTo(worst).isPositive();
    }
}
