package io.weir.flink.sink;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.metrics.CollectingReporter;
import io.weir.flink.metrics.CollectingReporter.Seen;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sink's metrics as a reporter sees them (a real {@link CollectingReporter} in the
 * MiniCluster's configuration), against what the table's files and commits say after the job: the
 * committer's figures and the table's health come from the committing subtask only, and the
 * compaction's bytes per round are those of the files its commit replaced and added.
 */
class SinkMetricsTest {
    private static final int KEYS = 97;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setConfiguration(CollectingReporter.configure(new Configuration()))
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @BeforeEach
    void forgetEarlierJobs() {
        CollectingReporter.clear();
    }

    @Test
    void committerAndTableHealthMatchTheTable() throws Exception {
        // Write-only: no compaction, so log files pile up in every file group.
        Table table = create(Map.of("write-only", "true"));
        long rows = 4_000;
        run(table, rows);

        Table done = Tables.load(table.location());
        Snapshot last = done.currentSnapshot();
        List<Commit> commits = InJobCompactionTest.commits(done);
        assertThat(commits)
                .isNotEmpty()
                .allSatisfy(c -> assertThat(c.kind()).isEqualTo(CommitKind.APPEND));

        // Registered by committer subtask 0 only, though the committer runs with parallelism 2.
        for (String name :
                List.of(
                        "commits",
                        "lastCommitId",
                        "lastCommittedCheckpoint",
                        "logFiles",
                        "maxLogFilesPerFileGroup",
                        "oldestLogAgeMs",
                        "lastCommitAgeMs")) {
            assertThat(CollectingReporter.named(name))
                    .as(name)
                    .singleElement()
                    .satisfies(s -> assertThat(s.subtask()).isZero())
                    .satisfies(s -> assertThat(s.scope()).endsWith("weir"));
        }
        assertThat(parallelismOfCommitter()).isEqualTo(2);

        assertThat(only("lastCommitId").longValue()).isEqualTo(last.id());
        assertThat(only("commits").longValue()).isEqualTo(commits.size());
        assertThat(only("committedFiles").longValue())
                .isEqualTo(commits.stream().mapToLong(c -> c.added().size()).sum());
        assertThat(only("committedRecords").longValue())
                .isEqualTo(
                        commits.stream()
                                .flatMap(c -> c.added().stream())
                                .mapToLong(DataFile::recordCount)
                                .sum());

        List<DataFile> logs = last.files().stream().filter(f -> f.kind() == FileKind.LOG).toList();
        long worst =
                last.fileGroups().values().stream()
                        .mapToLong(g -> g.stream().filter(f -> f.kind() == FileKind.LOG).count())
                        .max()
                        .orElseThrow();
        assertThat(only("logFiles").longValue()).isEqualTo(logs.size()).isGreaterThan(2);
        assertThat(only("maxLogFilesPerFileGroup").longValue()).isEqualTo(worst);

        // No compaction: the oldest live log is from the first commit.
        Seen oldest = only("oldestLogAgeMs");
        long firstCommit = commits.get(0).timestampMillis();
        assertThat(oldest.longValue())
                .isBetween(0L, oldest.readAtMillis() - firstCommit)
                .isGreaterThanOrEqualTo(
                        oldest.readAtMillis() - firstCommit - 5_000); // read 5 s after, at most
        Seen age = only("lastCommitAgeMs");
        long lastCommit = commits.get(commits.size() - 1).timestampMillis();
        assertThat(age.longValue())
                .isBetween(
                        age.readAtMillis() - lastCommit - 5_000, age.readAtMillis() - lastCommit);
    }

    @Test
    void compactionBytesPerRoundAreThoseOfItsCommit() throws Exception {
        Table table = create(Map.of("compaction.max-log-files", "3"));
        run(table, 6_000);

        Table done = Tables.load(table.location());
        long lastCompaction = only("lastCompactionCommitId").longValue();
        Commit compaction = done.commit(lastCompaction);
        assertThat(compaction.kind()).isEqualTo(CommitKind.COMPACT);
        Set<String> removed = Set.copyOf(compaction.removed());
        long read =
                done.snapshot(lastCompaction - 1).files().stream()
                        .filter(f -> removed.contains(f.path()))
                        .mapToLong(DataFile::sizeInBytes)
                        .sum();
        long written = compaction.added().stream().mapToLong(DataFile::sizeInBytes).sum();
        assertThat(only("lastCompactionBytesRead").longValue()).isEqualTo(read).isPositive();
        assertThat(only("lastCompactionBytesWritten").longValue()).isEqualTo(written).isPositive();

        // The health gauges see what compaction left: the logs of the last snapshot it committed.
        Snapshot afterLastIngest = done.snapshot(only("lastCommitId").longValue());
        assertThat(only("logFiles").longValue())
                .isEqualTo(
                        afterLastIngest.files().stream()
                                .filter(f -> f.kind() == FileKind.LOG)
                                .count());
    }

    private static Seen only(String name) {
        List<Seen> seen = CollectingReporter.named(name);
        assertThat(seen).as(name).hasSize(1);
        return seen.get(0);
    }

    /** Committer subtasks that ran (Flink's own committer metric is registered by each). */
    private static long parallelismOfCommitter() {
        return CollectingReporter.named("totalCommittables").stream()
                .map(Seen::subtask)
                .collect(Collectors.toSet())
                .size();
    }

    private Table create(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(options);
        all.put("bucket", "2");
        all.put("write-buffer-size", "4mb");
        return Tables.create(dir.toString(), SinkTestTables.keyedSchema(), all);
    }

    private static void run(Table table, long rows) throws Exception {
        WeirSink sink = WeirSink.builder().location(table.location()).build();
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.enableCheckpointing(100);
        env.fromSource(
                        new NumberSequenceSource(0, rows - 1),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .setParallelism(1)
                .map(new Changes.Generator(true, KEYS, 3), sink.inputType())
                .setParallelism(1)
                .sinkTo(sink)
                .setParallelism(2);
        env.execute("sink metrics");
    }
}
