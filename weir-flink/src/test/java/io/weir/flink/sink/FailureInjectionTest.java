package io.weir.flink.sink;

import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.sink.FailureHook.Point;
import io.weir.flink.source.WeirSource;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failure injection at every point of a Weir job, many times over, on a MiniCluster: failures in
 * the writers (after a row, creating a log file at a flush, after handing out a checkpoint's
 * files), in the committer (before a commit, a commit file write that is lost, one that lands but
 * reports an error, after a commit), in in-job compaction (writing a base file, its commit) and in
 * a source reader opening a data file. The sink points are {@link FailureHook}'s callbacks; the
 * storage points are I/O errors of {@link InjectingFileIO}, the FileIO the job is given, so none
 * costs production code anything. Three jobs: keyed changes (inserts, updates, deletes) into a
 * keyed table, appends into an append table, and a bounded source read of the keyed table into a
 * third table. After all restarts each table equals its independent model exactly.
 *
 * <p>By default a short run (a few failures per point); with {@code -Dweir.soak=true} the long run,
 * at least 100 injected failures (docs/testing.md).
 */
class FailureInjectionTest {
    private static final boolean LONG = Boolean.getBoolean("weir.soak");

    /** Failures per point (the quota); the sink's points count for each of the two sink jobs. */
    private static final int PER_POINT = LONG ? 6 : 1;

    private static final int KEYS = 500;
    private static final long ROWS = LONG ? 120_000 : 10_000;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(2)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @Test
    void tablesEqualModelsAfterFailuresAtEveryPoint(TestReporter reporter) throws Exception {
        long seed = Long.getLong("weir.soak.seed", System.nanoTime());
        Random random = new Random(seed);
        Map<Point, Long> fired = new EnumMap<>(Point.class);
        List<String> runs = new ArrayList<>();

        Table keyed = create("keyed", SinkTestTables.keyedSchema(), 4);
        FailureHook.Plan keyedPlan = sinkPlan(random);
        runs.add(writeChanges(keyed, true, keyedPlan));
        assertThat(SinkTestTables.read(keyed.location()))
                .as("keyed table (seed %d)", seed)
                .isEqualTo(Changes.keyedModel(ROWS, KEYS));
        add(fired, keyedPlan);

        Table append = create("append", SinkTestTables.appendSchema(), 2);
        FailureHook.Plan appendPlan = sinkPlan(random);
        runs.add(writeChanges(append, false, appendPlan));
        assertThat(SinkTestTables.read(append.location()))
                .as("append table (seed %d)", seed)
                .isEqualTo(Changes.appendModel(ROWS));
        add(fired, appendPlan);

        // The keyed table, read by a bounded source whose readers fail opening data files (and
        // whose writers fail too), into an append-only table: exactly the keyed table's rows.
        Table copy = create("copy", SinkTestTables.appendSchema(), 2);
        long keyedRows = Changes.keyedModel(ROWS, KEYS).size();
        FailureHook.Plan readPlan =
                new FailureHook.Plan()
                        .every(Point.SOURCE_READ, 4 * PER_POINT, 3, random)
                        .every(Point.WRITE, PER_POINT, keyedRows / (PER_POINT + 2), random);
        runs.add(copy(keyed, copy, readPlan));
        assertThat(SinkTestTables.read(copy.location()))
                .as("table read with failures (seed %d)", seed)
                .isEqualTo(Changes.keyedModel(ROWS, KEYS));
        add(fired, readPlan);

        long total = fired.values().stream().mapToLong(Long::longValue).sum();
        long rowsChecked = 2 * keyedRows + ROWS;
        reporter.publishEntry(
                "failures",
                String.format(
                        "seed %d: %d injected failures %s, %d rows checked; %s",
                        seed, total, fired, rowsChecked, runs));
        System.out.printf(
                "FailureInjectionTest seed %d: %d injected failures %s, %d rows checked%n  %s%n",
                seed, total, fired, rowsChecked, String.join("\n  ", runs));
        for (Point p : Point.values()) {
            assertThat(fired.getOrDefault(p, 0L)).as("failures fired at %s", p).isPositive();
        }
        if (LONG) {
            assertThat(total).as("injected failures").isGreaterThanOrEqualTo(100);
        }
    }

    /** A quota of failures at each sink point, spread over the job by the points' frequency. */
    private static FailureHook.Plan sinkPlan(Random random) {
        return new FailureHook.Plan()
                .every(Point.WRITE, PER_POINT, ROWS / (PER_POINT + 2), random)
                .every(Point.FLUSH, PER_POINT, 12, random)
                .every(Point.PREPARE_COMMIT, PER_POINT, 9, random)
                .every(Point.BEFORE_COMMIT, PER_POINT, 5, random)
                .every(Point.COMMIT_LOST, PER_POINT, 5, random)
                .every(Point.COMMIT_AMBIGUOUS, PER_POINT, 5, random)
                .every(Point.AFTER_COMMIT, PER_POINT, 5, random)
                .every(Point.COMPACTION, PER_POINT, 3, random)
                // From the first one: a short job may see only a couple of compaction commits.
                .every(Point.COMPACTION_COMMIT, PER_POINT, 1, random);
    }

    private Table create(String name, io.weir.Schema schema, int buckets) {
        return Tables.create(
                dir.resolve(name).toString(),
                schema,
                Map.of(
                        "bucket", Integer.toString(buckets),
                        "write-buffer-size", "1mb",
                        "compaction.max-log-files", "2"));
    }

    private static StreamExecutionEnvironment env() {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1000);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(20));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.enableCheckpointing(100);
        return env;
    }

    private String writeChanges(Table table, boolean keyed, FailureHook.Plan plan)
            throws Exception {
        String id = "inject-" + table.location();
        WeirSink sink =
                WeirSink.builder()
                        .location(table.location())
                        .fileIO(() -> new InjectingFileIO(id))
                        .hook(new FailureHook(id, plan))
                        .build();
        StreamExecutionEnvironment env = env();
        env.fromSource(
                        new NumberSequenceSource(0, ROWS - 1),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .setParallelism(1)
                // Paced so the job spans enough checkpoints (log files) for in-job compaction to
                // commit a few times even on a fast machine: its failure points need that.
                .map(new Changes.Generator(keyed, KEYS, 6), sink.inputType())
                .setParallelism(1)
                .sinkTo(sink)
                .setParallelism(3);
        return run(env, table, plan);
    }

    private String copy(Table from, Table to, FailureHook.Plan plan) throws Exception {
        String id = "inject-" + to.location();
        WeirSink sink =
                WeirSink.builder().location(to.location()).hook(new FailureHook(id, plan)).build();
        WeirSource source =
                WeirSource.builder()
                        .location(from.location())
                        .fileIO(() -> new InjectingFileIO(id))
                        .build();
        StreamExecutionEnvironment env = env();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "keyed table")
                .setParallelism(2)
                .sinkTo(sink)
                .setParallelism(2);
        return run(env, to, plan);
    }

    private static String run(StreamExecutionEnvironment env, Table table, FailureHook.Plan plan)
            throws Exception {
        long start = System.nanoTime();
        env.execute("failure injection into " + table.location());
        return String.format(
                "%s: %d ms, %d commits, %d committables found already committed, fired %s,"
                        + " not reached %s, %d compaction commits",
                Path.of(table.location()).getFileName(),
                (System.nanoTime() - start) / 1_000_000,
                Tables.load(table.location()).currentSnapshot().id(),
                plan.alreadyCommitted(),
                plan.fired(),
                plan.unfired(),
                plan.count(Point.COMPACTION_COMMIT));
    }

    private static void add(Map<Point, Long> fired, FailureHook.Plan plan) {
        for (Point p : Point.values()) {
            fired.merge(p, plan.fired(p), Long::sum);
        }
    }
}
