package io.weir.flink.sink;

import io.weir.Table;
import io.weir.Tables;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Flink jobs write one keyed table at the same time (docs/flink-sink.md, "Several jobs on one
 * table"): each appends log files to the same file groups and commits under its own writer id;
 * commits race only through the table's create-if-absent and are retried, and both jobs compact in
 * the job (their rounds may conflict; the loser retries later) and expire snapshots in the job down
 * to one. Each job fails a few times right after a commit landed (and once while writing a commit
 * file that does land), so it re-commits while the other job's commits and expiries move the table
 * on. Into a keyed table each job writes keys of its own and keys both write; with {@code
 * sequence.field} the greatest value of a shared key wins whichever job committed last. Into an
 * append-only table each row must be there exactly once. The table must equal the model exactly,
 * and no checkpoint of either job may be committed twice.
 */
class TwoJobsOneTableTest {
    private static final int OWN_KEYS = 300;
    private static final int SHARED_KEYS = 100;
    private static final long ROWS = 20_000;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(2)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @ParameterizedTest(name = "{0} table")
    @ValueSource(strings = {"keyed", "append"})
    void bothJobsAppendToTheSameFileGroups(String kind) throws Exception {
        boolean keyed = kind.equals("keyed");
        Map<String, String> options = new HashMap<>();
        options.put("bucket", "4");
        options.put("write-buffer-size", "1mb");
        options.put("compaction.max-log-files", "2");
        options.put("snapshot.expire.in-job", "true");
        options.put("snapshot.num-retained.min", "1");
        options.put("snapshot.time-retained", "1 ms");
        if (keyed) {
            options.put("sequence.field", "v");
        }
        Table table =
                Tables.create(
                        dir.resolve("t").toString(),
                        keyed ? SinkTestTables.keyedSchema() : SinkTestTables.appendSchema(),
                        options);
        Random random = new Random(kind.hashCode());
        List<FailureHook.Plan> plans = new ArrayList<>();
        List<JobClient> jobs = new ArrayList<>();
        for (int job = 0; job < 2; job++) {
            FailureHook.Plan plan =
                    new FailureHook.Plan()
                            .every(FailureHook.Point.AFTER_COMMIT, 3, 3, random)
                            .every(FailureHook.Point.COMMIT_AMBIGUOUS, 1, 4, random);
            plans.add(plan);
            String id = "two-jobs-" + kind + job + dir;
            WeirSink sink =
                    WeirSink.builder()
                            .location(table.location())
                            .fileIO(() -> new InjectingFileIO(id))
                            .hook(new FailureHook(id, plan))
                            .build();
            Configuration conf = new Configuration();
            conf.set(PipelineOptions.GENERIC_TYPES, false);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 100);
            conf.set(
                    RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                    Duration.ofMillis(20));
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.enableCheckpointing(100);
            env.fromSource(
                            new NumberSequenceSource(0, ROWS - 1),
                            WatermarkStrategy.noWatermarks(),
                            "rows of job " + job)
                    .setParallelism(1)
                    .map(new Rows(job, keyed), sink.inputType())
                    .setParallelism(1)
                    .sinkTo(sink)
                    .setParallelism(2);
            jobs.add(env.executeAsync("writer " + job));
        }
        for (JobClient job : jobs) {
            job.getJobExecutionResult().get(5, TimeUnit.MINUTES);
        }

        Map<List<Object>, List<Object>> model = new HashMap<>();
        for (int job = 0; job < 2; job++) {
            for (long s = 0; s < ROWS; s++) {
                List<Object> row = values(job, s, keyed);
                List<Object> key = keyed ? row.subList(0, 2) : row;
                List<Object> old = model.get(key);
                if (old == null || (Long) old.get(2) < (Long) row.get(2)) {
                    model.put(key, row);
                }
            }
        }
        List<List<Object>> actual = SinkTestTables.read(table.location());
        assertThat(actual).isEqualTo(Changes.sorted(new ArrayList<>(model.values())));
        for (FailureHook.Plan plan : plans) {
            assertThat(plan.fired(FailureHook.Point.AFTER_COMMIT))
                    .as("failures after a commit fired: %s", plan.fired())
                    .isPositive();
        }

        System.out.printf(
                "TwoJobsOneTableTest %s: %d rows, %d commits, failures %s%n",
                kind,
                actual.size(),
                Tables.load(table.location()).currentSnapshot().id(),
                plans.stream().map(FailureHook.Plan::fired).toList());
    }

    /**
     * Job j's s-th row. Keyed: alternately a key of its own and a shared key, v growing with s.
     * Append-only: a row of its own.
     */
    private static List<Object> values(int job, long s, boolean keyed) {
        long id =
                !keyed
                        ? 1_000_000 * (job + 1) + s
                        : s % 2 == 0
                                ? 1_000 * (job + 1) + (s / 2) % OWN_KEYS
                                : (s / 2) % SHARED_KEYS;
        return List.of(id, "d" + id % 3, 2 * s + job, "job" + job + "-" + s);
    }

    private static final class Rows implements MapFunction<Long, RowData> {
        private final int job;
        private final boolean keyed;

        Rows(int job, boolean keyed) {
            this.job = job;
            this.keyed = keyed;
        }

        @Override
        public RowData map(Long s) throws Exception {
            if (s % 8 == 0) {
                Thread.sleep(1);
            }
            List<Object> v = values(job, s, keyed);
            return SinkTestTables.row(
                    RowKind.INSERT,
                    (Long) v.get(0),
                    (String) v.get(1),
                    (Long) v.get(2),
                    (String) v.get(3));
        }
    }
}
