package io.weir.flink.source;

import io.weir.ExpireSnapshotsResult;
import io.weir.SnapshotLease;
import io.weir.Table;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.testing.ForwardingFileIO;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The source's snapshot lease: a slow streaming read keeps the snapshots it still needs while the
 * table commits, compacts and expires aggressively, and never meets a missing file; a read that
 * starts on an expired snapshot fails naming the earliest retained commit; a bounded read releases
 * its lease when it is done.
 */
class SourceLeaseTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @Test
    void slowStreamingReadKeepsItsSnapshotsWhileExpiryRuns() throws Exception {
        TestTable t = new TestTable(dir, Map.of("bucket", "2"));
        Random random = new Random(21);
        t.randomChanges(random, 300, 200);
        t.commit();
        WeirSource source =
                WeirSource.builder()
                        .location(t.location)
                        .streaming(true)
                        .discoveryInterval(Duration.ofMillis(50))
                        .consumerId("slow-reader")
                        .leaseTtl(Duration.ofSeconds(3))
                        .build();
        List<ExpireSnapshotsResult> expiries = new ArrayList<>();
        List<Long> leaseEnds = new ArrayList<>();
        try (RunningJob job = RunningJob.start(source, 2)) {
            Changelog changelog = new Changelog();
            for (int round = 0; round < 16; round++) {
                if (round % 4 == 3) {
                    t.compact();
                } else {
                    t.randomChanges(random, 60, 200);
                    t.commit();
                }
                // Expire everything the lease allows, after every commit.
                expiries.add(expireAllBut(t.table, 1));
                leases(t.table).forEach(l -> leaseEnds.add(l.expiresMillis()));
                job.drainInto(changelog, Duration.ofMillis(150));
            }
            job.awaitContent(changelog, t.model, Duration.ofSeconds(90));
            assertThat(job.status()).isEqualTo(JobStatus.RUNNING);
        }
        long latest = t.table.currentSnapshot().id();
        assertThat(expiries)
                .as("expiry ran and expired snapshots")
                .anyMatch(r -> r.expiredSnapshots() > 0);
        assertThat(expiries)
                .as("the lease held expiry back while the reader lagged")
                .anyMatch(r -> r.earliestRetained() < latest - 1);
        assertThat(leaseEnds).as("the lease was there").isNotEmpty();
        assertThat(leaseEnds.get(leaseEnds.size() - 1))
                .as("the lease was renewed")
                .isGreaterThan(leaseEnds.get(0));
    }

    /**
     * The race behind a flaky failure of the test above: the start commit was the latest when the
     * enumerator resolved it, and a commit and an expiry came before its lease was written.
     */
    @Test
    void streamingStartWhoseCommitExpiresBeforeItsLeaseStartsAtTheLatestCommit() throws Exception {
        TestTable t = new TestTable(dir);
        Random random = new Random(24);
        t.randomChanges(random, 100, 50);
        t.commit();
        CountDownLatch raced = new CountDownLatch(1);
        CommitBeforeLeaseIO.beforeFirstLease.set(
                () -> {
                    t.randomChanges(random, 30, 50);
                    t.commit();
                    expireAllBut(t.table, 1);
                    raced.countDown();
                });
        WeirSource source =
                WeirSource.builder()
                        .location(t.location)
                        .fileIO(CommitBeforeLeaseIO::new)
                        .streaming(true)
                        .discoveryInterval(Duration.ofMillis(50))
                        .consumerId("late-reader")
                        .build();
        try (RunningJob job = RunningJob.start(source, 0)) {
            assertThat(raced.await(60, TimeUnit.SECONDS)).as("the lease write was raced").isTrue();
            assertThat(t.table.earliestRetainedCommit()).isEqualTo(2);
            job.awaitContent(new Changelog(), t.model, Duration.ofSeconds(60));
            assertThat(job.status()).isEqualTo(JobStatus.RUNNING);
            assertThat(leases(t.table))
                    .singleElement()
                    .satisfies(l -> assertThat(l.commitId()).isEqualTo(2));
        } finally {
            CommitBeforeLeaseIO.beforeFirstLease.set(null);
        }
    }

    @Test
    void startOnAnExpiredSnapshotFailsNamingTheEarliestRetainedCommit() {
        TestTable t = new TestTable(dir);
        Random random = new Random(22);
        for (int i = 0; i < 5; i++) {
            t.randomChanges(random, 20, 50);
            t.commit();
        }
        expireAllBut(t.table, 2);
        assertThat(t.table.earliestRetainedCommit()).isEqualTo(4);

        WeirSource timeTravel = WeirSource.builder().location(t.location).snapshotId(2).build();
        assertThatThrownBy(() -> collect(timeTravel))
                .satisfies(
                        e ->
                                assertThat(rootMessage(e))
                                        .contains("commit 2")
                                        .contains("has expired")
                                        .contains("earliest retained commit is 4"));

        WeirSource changes =
                WeirSource.builder()
                        .location(t.location)
                        .streaming(true)
                        .startMode(StartMode.FROM_SNAPSHOT)
                        .snapshotId(3)
                        .build();
        assertThatThrownBy(() -> collect(changes))
                .satisfies(
                        e ->
                                assertThat(
                                                ExceptionUtils.findThrowable(
                                                        e, SnapshotExpiredException.class))
                                        .hasValueSatisfying(
                                                x ->
                                                        assertThat(x.getMessage())
                                                                .contains(
                                                                        "earliest retained commit is"
                                                                                + " 4")));
        assertThat(leases(t.table)).as("no lease left behind").isEmpty();
    }

    @Test
    void boundedReadReleasesItsLease() throws Exception {
        TestTable t = new TestTable(dir);
        t.randomChanges(new Random(23), 200, 100);
        t.commit();
        WeirSource source =
                WeirSource.builder()
                        .location(t.location)
                        .consumerId("batch-reader")
                        .leases(true)
                        .build();
        assertThat(collect(source)).hasSize(t.model.size());
        assertThat(Path.of(t.location, "_weir", "consumers"))
                .as("the lease was written")
                .isDirectory();
        assertThat(leases(t.table)).isEmpty();
    }

    @Test
    void boundedReadTakesNoLeaseByDefault() throws Exception {
        TestTable t = new TestTable(dir);
        t.randomChanges(new Random(29), 200, 100);
        t.commit();
        WeirSource source =
                WeirSource.builder().location(t.location).consumerId("read-only").build();
        assertThat(collect(source)).hasSize(t.model.size());
        assertThat(Path.of(t.location, "_weir", "consumers"))
                .as("no lease was ever written")
                .doesNotExist();
    }

    /** Expires every snapshot but the last {@code retain} that no lease holds. */
    private static ExpireSnapshotsResult expireAllBut(Table table, int retain) {
        return table.expireSnapshots()
                .retainLast(retain)
                .expireOlderThan(System.currentTimeMillis())
                .commit();
    }

    private static List<SnapshotLease> leases(Table table) {
        long now = System.currentTimeMillis();
        return table.leases().list().stream().filter(l -> l.isLive(now)).toList();
    }

    private static List<RowData> collect(WeirSource source) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        List<RowData> rows = new ArrayList<>();
        try (CloseableIterator<RowData> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "weir")
                        .executeAndCollect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    private static String rootMessage(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }

    /** A streaming job reading slowly (a sleep per row) whose rows a thread collects. */
    private static final class RunningJob implements AutoCloseable {
        private final JobClient client;
        private final CloseableIterator<RowData> iterator;
        private final BlockingQueue<List<Object>> rows = new LinkedBlockingQueue<>();
        private final Thread consumer;

        private RunningJob(JobClient client, CloseableIterator<RowData> iterator, WeirSource s) {
            this.client = client;
            this.iterator = iterator;
            this.consumer =
                    new Thread(
                            () -> {
                                try {
                                    while (iterator.hasNext()) {
                                        rows.add(TestTable.values(iterator.next(), s.rowType()));
                                    }
                                } catch (RuntimeException e) {
                                    // cancelled
                                }
                            },
                            "collect");
            consumer.setDaemon(true);
            consumer.start();
        }

        static RunningJob start(WeirSource source, long sleepMillisPerRow) throws Exception {
            Configuration conf = new Configuration();
            conf.set(PipelineOptions.GENERIC_TYPES, false);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(1);
            env.enableCheckpointing(200);
            CloseableIterator<RowData> iterator =
                    env.fromSource(source, WatermarkStrategy.noWatermarks(), "weir")
                            .map(new Throttle(sleepMillisPerRow), source.getProducedType())
                            .collectAsync();
            return new RunningJob(env.executeAsync("lease test"), iterator, source);
        }

        JobStatus status() throws Exception {
            return client.getJobStatus().get();
        }

        void drainInto(Changelog changelog, Duration duration) throws InterruptedException {
            long deadline = System.nanoTime() + duration.toNanos();
            long left;
            while ((left = deadline - System.nanoTime()) > 0) {
                List<Object> row = rows.poll(left, TimeUnit.NANOSECONDS);
                if (row != null) {
                    changelog.apply(row);
                }
            }
        }

        void awaitContent(
                Changelog changelog, Map<List<Object>, List<Object>> expected, Duration timeout)
                throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!changelog.rows.equals(expected) && System.nanoTime() < deadline) {
                JobStatus status = status();
                if (status == JobStatus.FAILED) {
                    throw new AssertionError("the reading job failed", failure());
                }
                assertThat(status).as("job status").isIn(JobStatus.RUNNING, JobStatus.CREATED);
                drainInto(changelog, Duration.ofMillis(100));
            }
            assertThat(changelog.errors).isEmpty();
            assertThat(changelog.rows).isEqualTo(expected);
        }

        /** Why the job failed, as its execution result says. */
        private Throwable failure() throws Exception {
            try {
                client.getJobExecutionResult().get(30, TimeUnit.SECONDS);
                return null;
            } catch (ExecutionException e) {
                return e.getCause();
            }
        }

        @Override
        public void close() throws Exception {
            try {
                client.cancel().get(30, TimeUnit.SECONDS);
            } finally {
                iterator.close();
                consumer.join(10_000);
            }
        }
    }

    /** Runs a test's action (once) just before the first lease file is written. */
    private static final class CommitBeforeLeaseIO extends ForwardingFileIO {
        static final AtomicReference<Runnable> beforeFirstLease = new AtomicReference<>();

        @Override
        public void overwrite(String path, byte[] content) throws IOException {
            if (path.contains("/_weir/consumers/")) {
                Runnable action = beforeFirstLease.getAndSet(null);
                if (action != null) {
                    action.run();
                }
            }
            super.overwrite(path, content);
        }
    }

    /** Slows the read down so that it lags behind the commits and the expiries. */
    private static final class Throttle implements MapFunction<RowData, RowData> {
        private final long millis;

        Throttle(long millis) {
            this.millis = millis;
        }

        @Override
        public RowData map(RowData row) throws InterruptedException {
            Thread.sleep(millis);
            return row;
        }
    }
}
