package io.weir.flink.sink;

import io.weir.Table;
import io.weir.Tables;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Flink jobs write one keyed table at the same time (docs/flink-sink.md, "Several jobs on one
 * table"): each appends log files to the same file groups and commits under its own writer id;
 * commits race only through the table's create-if-absent and are retried, and both jobs compact
 * in the job (their rounds may conflict; the loser retries later). Each job writes keys of its own
 * and keys both write; with {@code sequence.field} the greatest value of a shared key wins
 * whichever job committed last. The table must equal that model exactly, and every checkpoint of
 * each job must be committed exactly once.
 */
class TwoJobsOneTableTest {
    private static final int OWN_KEYS = 300;
    private static final int SHARED_KEYS = 100;
    private static final long ROWS = 40_000;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(2)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @Test
    void bothJobsAppendToTheSameFileGroups() throws Exception {
        Table table =
                Tables.create(
                        dir.resolve("t").toString(),
                        SinkTestTables.keyedSchema(),
                        Map.of(
                                "bucket", "4",
                                "sequence.field", "v",
                                "write-buffer-size", "1mb",
                                "compaction.max-log-files", "2"));
        List<JobClient> jobs = new ArrayList<>();
        for (int job = 0; job < 2; job++) {
            WeirSink sink = WeirSink.builder().location(table.location()).build();
            Configuration conf = new Configuration();
            conf.set(PipelineOptions.GENERIC_TYPES, false);
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.enableCheckpointing(100);
            env.fromSource(
                            new NumberSequenceSource(0, ROWS - 1),
                            WatermarkStrategy.noWatermarks(),
                            "rows of job " + job)
                    .setParallelism(1)
                    .map(new Rows(job), sink.inputType())
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
                List<Object> row = values(job, s);
                List<Object> key = row.subList(0, 2);
                List<Object> old = model.get(key);
                if (old == null || (Long) old.get(2) < (Long) row.get(2)) {
                    model.put(key, row);
                }
            }
        }
        List<List<Object>> actual = SinkTestTables.read(table.location());
        assertThat(actual).isEqualTo(Changes.sorted(new ArrayList<>(model.values())));

        Table loaded = Tables.load(table.location());
        Map<String, Long> commitsByWriter = new HashMap<>();
        int compactions = 0;
        java.util.Set<String> checkpoints = new java.util.HashSet<>();
        for (long id = Math.max(1, loaded.earliestRetainedCommit());
                id <= loaded.currentSnapshot().id();
                id++) {
            var commit = loaded.commit(id);
            if (commit.kind() == io.weir.CommitKind.APPEND) {
                commitsByWriter.merge(commit.writerId(), 1L, Long::sum);
                assertThat(checkpoints.add(commit.writerId() + "#" + commit.checkpointId()))
                        .as("checkpoint %d of %s committed once", commit.checkpointId(),
                                commit.writerId())
                        .isTrue();
            } else {
                compactions++;
            }
        }
        assertThat(commitsByWriter).as("the two jobs' writer ids").hasSize(2);
        System.out.printf(
                "TwoJobsOneTableTest: %d rows, commits by writer %s, %d other commits%n",
                actual.size(), commitsByWriter, compactions);
    }

    /** Job j's s-th row: alternately a key of its own and a shared key; v grows with s. */
    private static List<Object> values(int job, long s) {
        long id = s % 2 == 0 ? 1_000 * (job + 1) + (s / 2) % OWN_KEYS : (s / 2) % SHARED_KEYS;
        return List.of(id, "d" + id % 3, 2 * s + job, "job" + job + "-" + s);
    }

    private static final class Rows implements MapFunction<Long, RowData> {
        private final int job;

        Rows(int job) {
            this.job = job;
        }

        @Override
        public RowData map(Long s) throws Exception {
            if (s % 8 == 0) {
                Thread.sleep(1);
            }
            List<Object> v = values(job, s);
            return SinkTestTables.row(
                    RowKind.INSERT,
                    (Long) v.get(0),
                    (String) v.get(1),
                    (Long) v.get(2),
                    (String) v.get(3));
        }
    }
}
