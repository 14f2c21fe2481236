package io.weir.flink.sink;

import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.sink.FailureHook.Point;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly once under failure: a deterministic, checkpointed source of changes runs into a Weir
 * table while failures hit the writers mid-stream, the writers right after they handed out a
 * checkpoint's files, the committer before a commit, and the committer after a commit landed but
 * before Flink knew. After all the restarts the table must equal an independent model of the
 * source: for a keyed table the result of applying every change once in order, for an append-only
 * table exactly the multiset of rows the source emitted.
 */
class SinkExactlyOnceTest {
    private static final int KEYS = 500;
    private static final long ROWS = 20_000;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(2)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @ParameterizedTest(name = "{0} table, seed {1}")
    @CsvSource({"keyed, 1", "keyed, 2", "append, 1", "append, 2"})
    void tableEqualsModelAfterFailures(String kind, long seed, TestReporter reporter)
            throws Exception {
        boolean keyed = kind.equals("keyed");
        Table table =
                SinkTestTables.create(
                        dir,
                        keyed ? SinkTestTables.keyedSchema() : SinkTestTables.appendSchema(),
                        keyed ? 4 : 2);
        Random random = new Random(seed);
        FailureHook.Plan plan =
                new FailureHook.Plan()
                        .fail(Point.WRITE, 2, ROWS / 10, ROWS * 9 / 10, random)
                        .fail(Point.PREPARE_COMMIT, 2, 4, 24, random)
                        .fail(Point.BEFORE_COMMIT, 1 + random.nextInt(2), 2, 10, random)
                        .fail(Point.AFTER_COMMIT, 1 + random.nextInt(2), 2, 10, random);
        WeirSink sink =
                WeirSink.builder()
                        .location(table.location())
                        .hook(new FailureHook(kind + seed + dir, plan))
                        .build();

        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 100);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(20));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.enableCheckpointing(100);
        env.fromSource(
                        new NumberSequenceSource(0, ROWS - 1),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .setParallelism(1)
                .map(new Changes.Generator(keyed, KEYS, 8), sink.inputType())
                .setParallelism(1)
                .sinkTo(sink)
                .setParallelism(3);

        long start = System.nanoTime();
        env.execute("exactly once, " + kind + " table, seed " + seed);
        reporter.publishEntry(
                "run",
                String.format(
                        "%s table, seed %d: %d ms, %d commits, %d re-commits found committed,"
                                + " failures %s",
                        kind,
                        seed,
                        (System.nanoTime() - start) / 1_000_000,
                        Tables.load(table.location()).currentSnapshot().id(),
                        plan.alreadyCommitted(),
                        plan.fired()));

        assertThat(plan.unfired()).as("planned failures that did not fire").isEmpty();
        List<List<Object>> expected =
                keyed ? Changes.keyedModel(ROWS, KEYS) : Changes.appendModel(ROWS);
        List<List<Object>> actual = SinkTestTables.read(table.location());
        assertThat(actual.size()).as("row count").isEqualTo(expected.size());
        assertThat(actual).isEqualTo(expected);
        assertThat(plan.alreadyCommitted())
                .as("committables committed again after a failure behind the commit")
                .isGreaterThanOrEqualTo(1);
    }
}
