package io.weir.service;

import io.weir.Table;
import io.weir.Tables;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.io.LocalFileIO;
import io.weir.testing.Rows;
import io.weir.testing.ShmTempDirFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Readers in other threads (each with its own table object, as in other processes) lease the
 * snapshot they read while a writer commits and expiry and orphan removal run as aggressively as
 * possible: no reader ever meets a missing file, and every read equals the model.
 */
class ConcurrentReadersTest {
    private static final int READERS = 3;
    private static final int STEPS = 120;
    private static final int MIN_READS = 30;

    @TempDir(factory = ShmTempDirFactory.class)
    Path dir;

    @Test
    void leasedSnapshotsStayReadableWhileExpiryAndOrphanRemovalRun() throws Exception {
        String location = dir.resolve("t").toString();
        ModelTable model =
                ModelTable.create(
                        new LocalFileIO(),
                        location,
                        Map.of(
                                "bucket", "2",
                                "metadata.checkpoint-interval", "3",
                                "snapshot.num-retained.min", "1",
                                "snapshot.time-retained", "0 ms"),
                        Clock.systemUTC());
        Table table = model.table;
        Random random = new Random(21);
        model.append(random, 10);

        AtomicBoolean done = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger incrementalReads = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < READERS; r++) {
            String consumer = "reader-" + r;
            Thread t =
                    new Thread(
                            () -> {
                                try {
                                    read(
                                            model,
                                            location,
                                            consumer,
                                            done,
                                            reads,
                                            incrementalReads,
                                            refused);
                                } catch (Throwable e) {
                                    failures.add(e);
                                }
                            },
                            consumer);
            t.start();
            readers.add(t);
        }

        int deletedFiles = 0;
        // At least STEPS commits, and on until the readers have read enough (they are slower on a
        // busy machine), within a hard limit.
        for (int step = 0;
                (step < STEPS || reads.get() < MIN_READS)
                        && step < 10 * STEPS
                        && failures.isEmpty();
                step++) {
            int action = random.nextInt(10);
            if (action < 2) {
                model.compact(random);
            } else if (action == 2) {
                model.overwrite(random);
            } else {
                model.append(random, 1 + random.nextInt(6));
            }
            deletedFiles += table.expireSnapshots().commit().deletedDataFiles().size();
            if (step % 4 == 0) {
                // Only the temporary files of lease writes in flight are younger than this: data
                // files of the last seconds of commits count as old, so only references protect
                // the readers' files.
                table.removeOrphanFiles().olderThan(System.currentTimeMillis() - 2_000).execute();
            }
        }
        done.set(true);
        for (Thread t : readers) {
            t.join();
        }
        assertThat(failures).isEmpty();
        assertThat(reads.get()).isGreaterThanOrEqualTo(MIN_READS);
        assertThat(incrementalReads.get()).isGreaterThan(MIN_READS / 2);
        assertThat(deletedFiles).isGreaterThan(50);

        // With the readers gone, their leases released, expiry catches up completely.
        table.expireSnapshots().commit();
        long latest = table.currentSnapshot().id();
        assertThat(table.earliestRetainedCommit()).isEqualTo(latest);
        assertThat(SnapshotExpiryTest.dataFiles(location))
                .containsExactlyInAnyOrderElementsOf(
                        table.snapshot(latest).files().stream()
                                .map(f -> location + "/" + f.path())
                                .toList());
    }

    /**
     * One reader: lease the latest snapshot, wait until the writer is five commits further (so that
     * only the lease keeps the snapshot), read it and the changes since, compare, release. A lease
     * refused because the snapshot expired meanwhile is fine; so is being told, when loading the
     * leased snapshot again, that it expired (the lease came too late); a missing file never is.
     */
    private static void read(
            ModelTable model,
            String location,
            String consumer,
            AtomicBoolean done,
            AtomicInteger reads,
            AtomicInteger incrementalReads,
            AtomicInteger refused)
            throws InterruptedException {
        Table table = Tables.load(new LocalFileIO(), location);
        while (!done.get()) {
            table.refresh();
            long id = table.currentSnapshot().id();
            try {
                table.leases().acquire(consumer, id, Duration.ofMinutes(1));
            } catch (SnapshotExpiredException e) {
                refused.incrementAndGet();
                continue;
            }
            try {
                // Hold the lease while the writer commits and expires past the snapshot.
                Table other = Tables.load(new LocalFileIO(), location);
                while (!done.get() && other.currentSnapshot().id() < id + 5) {
                    Thread.sleep(5);
                    other.refresh();
                }
                assertThat(ModelTable.read(table, id))
                        .as("%s reading snapshot %d", consumer, id)
                        .isEqualTo(model.awaitExpected(id));
                reads.incrementAndGet();
                long later = other.currentSnapshot().id();
                if (later > id) {
                    List<List<Object>> changes =
                            Rows.readAll(
                                    other.newIncrementalScan().between(id, later).rows(),
                                    ModelTable.TYPE,
                                    true);
                    assertThat(ExpiryModelTest.sorted(changes))
                            .as("%s reading changes (%d, %d]", consumer, id, later)
                            .isEqualTo(
                                    ExpiryModelTest.sorted(
                                            ExpiryModelTest.diff(
                                                    model.awaitExpected(id),
                                                    model.awaitExpected(later))));
                    incrementalReads.incrementAndGet();
                }
            } catch (SnapshotExpiredException e) {
                refused.incrementAndGet(); // leased after an expiry had passed it: told so
            } finally {
                table.leases().release(consumer);
            }
        }
    }
}
