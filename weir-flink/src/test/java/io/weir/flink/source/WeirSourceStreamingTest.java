package io.weir.flink.source;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.types.DataTypes;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Streaming reads while the test commits upserts, deletes and compactions: the emitted changelog,
 * applied strictly to the starting content, must end equal to the table, also across a failure and
 * restore from a checkpoint.
 */
class WeirSourceStreamingTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir Path dir;

    @BeforeEach
    void reset() {
        FailOnce.FAILED.set(false);
        FailOnce.SEEN.set(0);
    }

    @Test
    void followsCommitsExactlyOnceAcrossAFailure() throws Exception {
        TestTable t = new TestTable(dir, Map.of("bucket", "3"));
        Random random = new Random(11);
        t.randomChanges(random, 400, 300);
        t.commit();
        WeirSource source =
                WeirSource.builder()
                        .location(t.location)
                        .streaming(true)
                        .discoveryInterval(Duration.ofMillis(100))
                        .build();
        long initialRows = t.model.size();
        // Fail halfway through the initial snapshot, read slowly so that checkpoints land in the
        // middle of splits: the restore must resume them after their emitted rows.
        try (Job job = Job.start(source, initialRows / 2)) {
            Changelog changelog = new Changelog();
            for (int round = 0; round < 12; round++) {
                if (round == 4 || round == 9) {
                    t.compact();
                } else {
                    t.randomChanges(random, 120, 400);
                    t.commit();
                }
                job.drainInto(changelog, Duration.ofMillis(250));
            }
            job.awaitContent(changelog, t.model);
            assertThat(FailOnce.FAILED).as("the injected failure happened").isTrue();
            // Quiet: nothing more arrives after the table stopped changing.
            job.drainInto(changelog, Duration.ofSeconds(1));
            assertThat(changelog.errors).isEmpty();
            assertThat(changelog.rows).isEqualTo(t.model);
        }
    }

    /**
     * A partition rescaled apart from the table, then the whole table (docs/rescale.md), while the
     * job follows: the changes around each rescale commit are read apart, and the job's content
     * stays the table's.
     */
    @Test
    void followsAcrossAPartitionRescaleAndATableRescale() throws Exception {
        TestTable t = new TestTable(dir, Map.of("bucket", "2"));
        Random random = new Random(14);
        t.randomChanges(random, 300, 200);
        t.commit();
        WeirSource source =
                WeirSource.builder()
                        .location(t.location)
                        .streaming(true)
                        .discoveryInterval(Duration.ofMillis(100))
                        .build();
        try (Job job = Job.start(source, -1)) {
            Changelog changelog = new Changelog();
            job.drainInto(changelog, Duration.ofMillis(300));
            // Day 2 is rescaled apart: the writers (2 buckets) write day 1 only until the table
            // follows.
            t.table.newRescale().partition("dt=" + TestTable.DAYS[1]).buckets(3).commit();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 60; i++) {
                    long id = random.nextInt(250);
                    if (random.nextInt(4) == 0) {
                        t.delete(id, TestTable.DAYS[0]);
                    } else {
                        t.upsert(id, TestTable.DAYS[0], "r" + round, i);
                    }
                }
                t.commit();
                job.drainInto(changelog, Duration.ofMillis(150));
            }
            t.table.newRescale().buckets(3).commit();
            t.table.refresh();
            t.randomChanges(random, 200, 300);
            t.commit();
            job.awaitContent(changelog, t.model);
            job.drainInto(changelog, Duration.ofSeconds(1));
            assertThat(changelog.errors).isEmpty();
            assertThat(changelog.rows).isEqualTo(t.model);
        }
    }

    @Test
    void startsFromTheLatestCommit() throws Exception {
        TestTable t = new TestTable(dir);
        Random random = new Random(12);
        t.randomChanges(random, 200, 100);
        t.commit();
        Map<List<Object>, List<Object>> atStart = new HashMap<>(t.model);
        WeirSource source =
                WeirSource.builder()
                        .location(t.location)
                        .streaming(true)
                        .startMode(StartMode.LATEST)
                        .discoveryInterval(Duration.ofMillis(100))
                        .build();
        try (Job job = Job.start(source, -1)) {
            job.awaitRunning();
            Changelog changelog = new Changelog(atStart);
            for (int round = 0; round < 3; round++) {
                t.randomChanges(random, 80, 150);
                t.commit();
                job.drainInto(changelog, Duration.ofMillis(200));
            }
            job.awaitContent(changelog, t.model);
            assertThat(changelog.applied).isLessThan(atStart.size() + 3 * 80 * 2);
        }
    }

    @Test
    void startsFromAGivenCommit() throws Exception {
        TestTable t = new TestTable(dir);
        Random random = new Random(13);
        for (int i = 0; i < 3; i++) {
            t.randomChanges(random, 100, 100);
            t.commit();
        }
        Map<List<Object>, List<Object>> atCommit2 = new HashMap<>();
        for (List<Object> row :
                TestTable.rows(t.table.newScan().useSnapshot(2).rows(), t.rowType())) {
            List<Object> values = row.subList(1, row.size());
            atCommit2.put(values.subList(0, 2), values);
        }
        WeirSource source =
                WeirSource.builder()
                        .location(t.location)
                        .streaming(true)
                        .startMode(StartMode.FROM_SNAPSHOT)
                        .snapshotId(3)
                        .discoveryInterval(Duration.ofMillis(100))
                        .build();
        try (Job job = Job.start(source, -1)) {
            Changelog changelog = new Changelog(atCommit2);
            t.compact();
            t.randomChanges(random, 100, 150);
            t.commit();
            job.awaitContent(changelog, t.model);
        }
    }

    @Test
    void followsAnAppendOnlyTable() throws Exception {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.STRING())
                        .column("name", DataTypes.STRING())
                        .column("v", DataTypes.INT())
                        .build();
        String location = dir.resolve("log").toString();
        Table table = Tables.create(location, schema, Map.of("bucket", "2"));
        Map<List<Object>, List<Object>> expected = new HashMap<>();
        appendRows(table, 0, 100, expected);
        WeirSource source =
                WeirSource.builder()
                        .location(location)
                        .streaming(true)
                        .discoveryInterval(Duration.ofMillis(100))
                        .build();
        try (Job job = Job.start(source, -1)) {
            Changelog changelog = new Changelog();
            for (int round = 1; round <= 3; round++) {
                appendRows(table, round * 100, 100, expected);
                job.drainInto(changelog, Duration.ofMillis(200));
            }
            job.awaitContent(changelog, expected);
        }
    }

    /** Appends rows with ids [from, from + count), half to bucket 0 and half to bucket 1. */
    private static void appendRows(
            Table table, long from, int count, Map<List<Object>, List<Object>> expected) {
        List<DataFile> files = new ArrayList<>();
        for (int bucket = 0; bucket < 2; bucket++) {
            try (TableWrite write = table.newWrite().appendBucket(bucket).create()) {
                for (long id = from + bucket; id < from + count; id += 2) {
                    List<Object> row = List.of(id, "d", "n" + id, (int) id);
                    write.write(BinaryRowWriter.toRow(table.schema().rowType(), row.toArray()));
                    expected.put(row.subList(0, 2), row);
                }
                files.addAll(write.prepareCommit());
            }
        }
        table.newAppend().addFiles(files).commit();
    }

    /** A running streaming job whose output a thread collects into a queue. */
    private static final class Job implements AutoCloseable {
        private final JobClient client;
        private final CloseableIterator<RowData> iterator;
        private final BlockingQueue<List<Object>> rows = new LinkedBlockingQueue<>();
        private final Thread consumer;

        private Job(JobClient client, CloseableIterator<RowData> iterator, WeirSource source) {
            this.client = client;
            this.iterator = iterator;
            this.consumer =
                    new Thread(
                            () -> {
                                try {
                                    while (iterator.hasNext()) {
                                        rows.add(
                                                TestTable.values(
                                                        iterator.next(), source.rowType()));
                                    }
                                } catch (RuntimeException e) {
                                    // the job was cancelled
                                }
                            },
                            "collect");
            consumer.setDaemon(true);
            consumer.start();
        }

        /** Starts the source with parallelism 2, failing once after {@code failAfter} rows. */
        static Job start(WeirSource source, long failAfter) throws Exception {
            Configuration conf = new Configuration();
            conf.set(PipelineOptions.GENERIC_TYPES, false);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
            conf.set(
                    RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                    Duration.ofMillis(200));
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(2);
            env.enableCheckpointing(200);
            DataStream<RowData> stream =
                    env.fromSource(source, WatermarkStrategy.noWatermarks(), "weir");
            if (failAfter >= 0) {
                stream = stream.map(new FailOnce(failAfter), source.getProducedType());
            }
            CloseableIterator<RowData> iterator = stream.collectAsync();
            JobClient client = env.executeAsync("weir-streaming-test");
            return new Job(client, iterator, source);
        }

        void awaitRunning() throws Exception {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (client.getJobStatus().get() != JobStatus.RUNNING) {
                assertThat(System.nanoTime()).as("job running in time").isLessThan(deadline);
                Thread.sleep(50);
            }
            Thread.sleep(1000); // the enumerator resolved the start
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

        void awaitContent(Changelog changelog, Map<List<Object>, List<Object>> expected)
                throws InterruptedException {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!changelog.rows.equals(expected) && System.nanoTime() < deadline) {
                drainInto(changelog, Duration.ofMillis(100));
            }
            assertThat(changelog.errors).isEmpty();
            assertThat(changelog.rows).isEqualTo(expected);
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

    /** Fails the job once, after a checkpoint and after some rows, to force a restore. */
    private static final class FailOnce extends RichMapFunction<RowData, RowData>
            implements CheckpointListener {
        static final AtomicBoolean FAILED = new AtomicBoolean();
        static final AtomicLong SEEN = new AtomicLong();

        private final long after;
        private transient boolean checkpointed;

        FailOnce(long after) {
            this.after = after;
        }

        @Override
        public RowData map(RowData row) throws InterruptedException {
            if (!FAILED.get()) {
                Thread.sleep(1);
            }
            if (SEEN.incrementAndGet() > after
                    && checkpointed
                    && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("Injected failure");
            }
            return row;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            checkpointed = true;
        }
    }
}
