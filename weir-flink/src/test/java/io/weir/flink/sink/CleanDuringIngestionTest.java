package io.weir.flink.sink;

import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.compaction.CleanBeforeCompactionCommitIO;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The defect of issue 25, item 4: orphan removal run during ingestion deleted log files that the
 * job had written but not committed yet; the job then committed references to them and every read
 * failed. Here orphan removal runs over and over while a streaming job writes, each time with a
 * cutoff in the future (every unreferenced file counts as old: what {@code --orphans-older-than '0
 * s'} did, and what a checkpoint slower than the least age does). The writers' leases keep their
 * files in flight: the job succeeds and the table equals the model of its input exactly. Without
 * the leases the job fails: its commit finds a file deleted.
 */
class CleanDuringIngestionTest {
    private static final int KEYS = 97;
    private static final long ROWS = 6_000;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @Test
    void cleanDuringAStreamingJobDeletesNothingInFlight(TestReporter reporter) throws Exception {
        Table table =
                Tables.create(
                        dir.toString(),
                        SinkTestTables.keyedSchema(),
                        Map.of("bucket", "2", "write-buffer-size", "4mb", "write-only", "true"));
        WeirSink sink = WeirSink.builder().location(table.location()).build();
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.enableCheckpointing(50);
        env.fromSource(
                        new NumberSequenceSource(0, ROWS - 1),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .setParallelism(1)
                .map(new Changes.Generator(true, KEYS, 3), sink.inputType())
                .setParallelism(1)
                .sinkTo(sink)
                .setParallelism(2);
        JobClient job = env.executeAsync("clean during ingestion");

        // The cutoff in the future also makes temporary files of metadata writes "old", which a
        // real cutoff (at least 1 min) never does to a write in flight. A live writer lease
        // covers those too, from its time on; the first lease of each writer has none before it,
        // so the cleans start once both writers hold theirs.
        while (Tables.load(table.location()).writerLeases().list().size() < 2
                && !job.getJobExecutionResult().isDone()) {
            Thread.sleep(5);
        }
        int cleans = 0;
        int cleansWithLeases = 0;
        long keptInFlight = 0;
        while (!job.getJobExecutionResult().isDone()) {
            Table now = Tables.load(table.location());
            if (!now.writerLeases().list().isEmpty()) {
                cleansWithLeases++;
            }
            keptInFlight +=
                    now.removeOrphanFiles()
                            .olderThan(System.currentTimeMillis() + 3_600_000)
                            .execute()
                            .inFlightFiles();
            cleans++;
        }
        job.getJobExecutionResult().get();
        long commits = Tables.load(table.location()).currentSnapshot().id();
        reporter.publishEntry(
                "clean",
                cleans
                        + " orphan removals during "
                        + commits
                        + " commits of the job kept "
                        + keptInFlight
                        + " files in flight");
        assertThat(commits).as("commits").isGreaterThan(10);
        assertThat(cleansWithLeases)
                .as("orphan removals while writers held leases")
                .isGreaterThan(5);
        assertThat(keptInFlight).as("files of checkpoints in flight that leases kept").isPositive();

        assertThat(SinkTestTables.read(table.location())).isEqualTo(Changes.keyedModel(ROWS, KEYS));
        // Once the job is done, a clean (the writers' leases on their last hand-over may still keep
        // a few files until they end) changes no row.
        Table done = Tables.load(table.location());
        done.removeOrphanFiles().olderThan(System.currentTimeMillis() + 3_600_000).execute();
        assertThat(SinkTestTables.read(table.location())).isEqualTo(Changes.keyedModel(ROWS, KEYS));
    }

    /**
     * Issue 25: the in-job compaction rounds hold a writer lease until their commit has landed. An
     * orphan removal that counts every unreferenced file as old runs right before each compaction
     * commit file is written (after the commit checked its files): the leases keep the outputs, and
     * the table equals the model with every committed file present, and every such commit was made
     * under a live compaction lease, which ended after it.
     */
    @Test
    void inJobCompactionKeepsItsOutputsFromACleanUntilItsCommit() throws Exception {
        Table table =
                Tables.create(
                        dir.toString(),
                        SinkTestTables.keyedSchema(),
                        Map.of(
                                "bucket", "2",
                                "write-buffer-size", "4mb",
                                "compaction.max-log-files", "3"));
        String location = table.location();
        WeirSink sink =
                WeirSink.builder()
                        .location(location)
                        .fileIO(() -> new CleanBeforeCompactionCommitIO(location))
                        .build();
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.enableCheckpointing(100);
        env.fromSource(
                        new NumberSequenceSource(0, ROWS - 1),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .setParallelism(1)
                .map(new Changes.Generator(true, KEYS, 3), sink.inputType())
                .setParallelism(1)
                .sinkTo(sink)
                .setParallelism(2);
        env.execute("clean before in-job compaction commits");

        Table done = Tables.load(location);
        long compactions = 0;
        for (long id = done.earliestRetainedCommit() + 1; id <= done.currentSnapshot().id(); id++) {
            if (done.commit(id).kind() == CommitKind.COMPACT) {
                compactions++;
            }
        }
        assertThat(compactions).as("compaction commits").isPositive();
        // A compaction commit that lost the race for its id to an ingest commit is written again.
        assertThat(CleanBeforeCompactionCommitIO.cleans(location))
                .isGreaterThanOrEqualTo(compactions);
        assertThat(CleanBeforeCompactionCommitIO.kept(location)).isPositive();
        // Here the sink writers' leases (on their oldest checkpoint not committed) cover a round's
        // outputs too, as long as the round is shorter than a checkpoint interval plus 1 min; so
        // check the round's own lease: held at every compaction commit, ended after it.
        assertThat(CleanBeforeCompactionCommitIO.leased(location))
                .as("compaction commits under a live compaction lease")
                .isEqualTo(CleanBeforeCompactionCommitIO.cleans(location));
        assertThat(done.writerLeases().list())
                .noneMatch(l -> l.writerId().startsWith("compaction-"));
        for (DataFile f : done.currentSnapshot().files()) {
            assertThat(new File(location, f.path())).as(f.path()).exists();
        }
        assertThat(SinkTestTables.read(location)).isEqualTo(Changes.keyedModel(ROWS, KEYS));
    }
}
