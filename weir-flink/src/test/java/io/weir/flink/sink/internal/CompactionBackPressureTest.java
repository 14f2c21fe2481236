package io.weir.flink.sink.internal;

import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.ScanTask;
import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.source.TestTable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The writer's wait for in-job compaction on a real table: it holds a checkpoint while a group it
 * writes has {@code compaction.stall-runs} sorted runs after its base, lets go once a compaction
 * commit brings the group below, and gives up after {@code compaction.stall-timeout}.
 */
class CompactionBackPressureTest {
    @TempDir Path dir;

    /** One bucket, one day: every commit adds one sorted run to the one group written. */
    private TestTable table(String stallTimeout) {
        return new TestTable(
                dir,
                Map.of(
                        "bucket", "1",
                        "compaction.max-log-files", "2",
                        "compaction.stall-runs", "3",
                        "compaction.stall-timeout", stallTimeout));
    }

    private static List<DataFile> commitRuns(TestTable t, int runs) {
        for (int i = 0; i < runs; i++) {
            t.upsert(i, TestTable.DAYS[0], "n" + i, i);
            t.commit();
        }
        return t.table.currentSnapshot().files();
    }

    @Test
    void waitsUntilCompactionBringsTheGroupBelowTheBound() throws Exception {
        TestTable t = table("1 min");
        List<DataFile> files = commitRuns(t, 3);
        FileGroupId group = files.get(0).fileGroup();
        assertThat(runs(t.table, group)).isEqualTo(3);
        CompactionBackPressure backPressure = CompactionBackPressure.of(t.table, true);

        CompletableFuture<Void> writer =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                backPressure.await(files);
                            } catch (InterruptedException e) {
                                throw new RuntimeException(e);
                            }
                        });
        Thread.sleep(500);
        assertThat(writer).as("held while the group has 3 runs").isNotDone();

        // The job's compaction, from another Table instance as the compaction thread has.
        Tables.load(t.location).newCompaction().execute();
        writer.get(10, TimeUnit.SECONDS);
        assertThat(runs(t.table, group)).isZero();
        assertThat(backPressure.stalls()).isEqualTo(1);
        assertThat(backPressure.stalledMillis()).isGreaterThanOrEqualTo(500);
    }

    @Test
    void doesNotWaitBelowTheBound() throws Exception {
        TestTable t = table("1 min");
        List<DataFile> files = commitRuns(t, 2);
        CompactionBackPressure backPressure = CompactionBackPressure.of(t.table, true);
        backPressure.await(files);
        assertThat(backPressure.stalls()).isZero();
    }

    /**
     * The writer's table is not refreshed while the runs it last read plus one per hand-over since
     * stay below the bound (on an object store a refresh is requests per writer and checkpoint); it
     * is once they could reach it, and then the check is exact.
     */
    @Test
    void readsTheTableOnlyWhenTheRunsCouldHaveReachedTheBound() throws Exception {
        TestTable t = table("300 ms");
        List<DataFile> files = commitRuns(t, 1);
        Table writer = Tables.load(t.location);
        CompactionBackPressure backPressure = CompactionBackPressure.of(writer, true);
        for (int checkpoint = 1; checkpoint <= 2; checkpoint++) {
            backPressure.await(files);
            assertThat(writer.currentSnapshot().id()).as("checkpoint %d", checkpoint).isEqualTo(1);
            // The committer commits the hand-over: one more run.
            t.upsert(checkpoint, TestTable.DAYS[0], "c" + checkpoint, checkpoint);
            t.commit();
        }
        assertThat(backPressure.stalls()).isZero();
        assertThat(runs(t.table, files.get(0).fileGroup())).isEqualTo(3);

        // 1 run read + 2 hand-overs since: the group may hold 3 runs now, so the writer reads
        // the table, finds 3, and waits.
        backPressure.await(files);
        assertThat(writer.currentSnapshot().id()).isEqualTo(3);
        assertThat(backPressure.stalls()).isEqualTo(1);
    }

    /**
     * A hand-over with two files of one group (the write buffer flushed twice since the last
     * checkpoint) adds two runs: the writer counts both, not one per hand-over, before it skips
     * reading the table.
     */
    @Test
    void aHandOverOfSeveralFilesOfAGroupCountsEachAsARun() throws Exception {
        TestTable t = table("300 ms");
        List<DataFile> files = commitRuns(t, 1);
        Table writer = Tables.load(t.location);
        CompactionBackPressure backPressure = CompactionBackPressure.of(writer, true);
        backPressure.await(List.of(files.get(0), files.get(0)));
        assertThat(writer.currentSnapshot().id()).isEqualTo(1);
        // The committer commits the hand-over: two more runs.
        for (int flush = 1; flush <= 2; flush++) {
            t.upsert(flush, TestTable.DAYS[0], "f" + flush, flush);
            t.commit();
        }
        assertThat(runs(t.table, files.get(0).fileGroup())).isEqualTo(3);

        // 1 run read + 2 handed over: the group may hold 3 runs now, so the writer reads the
        // table, finds 3, and waits (one run per hand-over would have counted 2 and gone on).
        backPressure.await(files);
        assertThat(writer.currentSnapshot().id()).isEqualTo(3);
        assertThat(backPressure.stalls()).isEqualTo(1);
    }

    @Test
    void handsOnAfterTheTimeout() throws Exception {
        TestTable t = table("300 ms");
        List<DataFile> files = commitRuns(t, 4);
        CompactionBackPressure backPressure = CompactionBackPressure.of(t.table, true);
        long start = System.nanoTime();
        backPressure.await(files);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                .isGreaterThanOrEqualTo(300);
        assertThat(backPressure.stalls()).isEqualTo(1);
    }

    @Test
    void onlyJobsThatCompactTheirKeyedTableWait() throws Exception {
        TestTable t = table("1 min");
        List<DataFile> files = commitRuns(t, 3);
        for (CompactionBackPressure none :
                List.of(
                        CompactionBackPressure.of(t.table, false),
                        CompactionBackPressure.of(
                                Tables.create(
                                        dir.resolve("w").toString(),
                                        t.table.schema(),
                                        Map.of("write-only", "true")),
                                true))) {
            none.await(files);
            assertThat(none.stalls()).isZero();
        }
        TestTable never =
                new TestTable(
                        dir.resolve("z"),
                        Map.of(
                                "bucket", "1",
                                "compaction.max-log-files", "2",
                                "compaction.stall-runs", "3",
                                "compaction.stall-timeout", "0 s"));
        CompactionBackPressure neverWaits = CompactionBackPressure.of(never.table, true);
        neverWaits.await(commitRuns(never, 3));
        assertThat(neverWaits.stalls()).isZero();
    }

    @Test
    void theBoundMustExceedTheCompactionTrigger() {
        assertThatThrownBy(
                        () ->
                                new TestTable(
                                        dir,
                                        Map.of(
                                                "compaction.max-log-files", "5",
                                                "compaction.stall-runs", "5")))
                .hasMessageContaining(
                        "'compaction.stall-runs' (5) must be greater than"
                                + " 'compaction.max-log-files' (5)");
        assertThat(
                        Tables.create(
                                        dir.resolve("d").toString(),
                                        new TestTable(dir.resolve("s")).table.schema(),
                                        Map.of("compaction.max-log-files", "7"))
                                .options()
                                .compactionStallRuns())
                .as("unset: twice compaction.max-log-files")
                .isEqualTo(14);
    }

    private static int runs(Table table, FileGroupId group) {
        table.refresh();
        List<DataFile> files = table.currentSnapshot().fileGroups().get(group);
        return new ScanTask(table.currentSnapshot().id(), group, files).deltaRuns();
    }
}
