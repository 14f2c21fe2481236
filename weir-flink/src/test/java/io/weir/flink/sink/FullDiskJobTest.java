package io.weir.flink.sink;

import io.weir.Table;
import io.weir.Tables;
import io.weir.testing.SmallTmpfs;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A streaming job writes a table on a real, small file system (a tmpfs, mostly taken by a ballast
 * file) until it is full: the job fails with an error naming the file and the table, the table
 * holds exactly the rows of the checkpoints committed before; once the ballast is deleted, the job
 * restored from its last retained checkpoint (as an operator would, {@code -s}) finishes, and the
 * table holds exactly every row. Skipped where a tmpfs cannot be mounted (CI requires it).
 */
class FullDiskJobTest {
    private static final long ROWS = 12_000;
    private static final String DT = "2024-05-01";

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;
    private SmallTmpfs disk;

    @AfterEach
    void unmount() throws Exception {
        if (disk != null) {
            disk.close();
        }
    }

    @Test
    void aJobOnAFullDiskFailsClearlyAndResumesFromItsCheckpointOnceSpaceIsFree(
            TestReporter reporter) throws Exception {
        disk = SmallTmpfs.mount(dir, 24);
        // About 6 MB stay free: the job's rows need about 8 MB of log files.
        Path ballast = disk.dir().resolve("ballast");
        Files.write(ballast, new byte[18 << 20]);
        String location = disk.dir().resolve("t").toString();
        Tables.create(
                location,
                SinkTestTables.keyedSchema(),
                Map.of("bucket", "2", "write-buffer-size", "2mb", "write-only", "true"));
        Path checkpoints = dir.resolve("checkpoints");

        JobClient first = submit(location, checkpoints, null);
        assertThatThrownBy(() -> first.getJobExecutionResult().get())
                .satisfies(e -> reporter.publishEntry("error", namesFileAndTable(e, location)));

        // Nothing committed is damaged: the table holds exactly the rows of a prefix of the input
        // (one checkpoint's commit covers every row before its barrier).
        List<List<Object>> before = SinkTestTables.read(location);
        assertThat(before).isEqualTo(model(before.size()));
        assertThat(before.size()).as("rows committed before the disk filled").isPositive();
        assertThat((long) before.size()).isLessThan(ROWS);

        Files.delete(ballast);
        Path restoreFrom = latestCheckpoint(checkpoints, first.getJobID());
        assertThat(restoreFrom).as("a retained checkpoint of the failed job").isNotNull();
        JobClient second = submit(location, checkpoints, restoreFrom);
        second.getJobExecutionResult().get();
        assertThat(SinkTestTables.read(location)).isEqualTo(model(ROWS));

        // Files the failed attempt left (if any) are orphans; removing them changes no row.
        Table table = Tables.load(location);
        reporter.publishEntry(
                "orphans",
                table.removeOrphanFiles()
                        .olderThan(System.currentTimeMillis() + 3_600_000)
                        .execute()
                        .orphanFiles()
                        .toString());
        assertThat(SinkTestTables.read(location)).isEqualTo(model(ROWS));
    }

    /**
     * A bulk insert (batch) whose spill directory is on the full disk fails naming the spill file
     * and the table and commits nothing; once space is freed, the same job runs again and the table
     * holds exactly its rows.
     */
    @Test
    void aBulkInsertWhoseSpillDirectoryIsFullFailsClearlyAndRunsAgainOnceSpaceIsFree()
            throws Exception {
        disk = SmallTmpfs.mount(dir, 8);
        String location = dir.resolve("t").toString();
        Tables.create(location, SinkTestTables.keyedSchema(), Map.of("bucket", "2"));
        long rows = 4_000;
        disk.fill();
        assertThatThrownBy(() -> bulkInsert(location, rows))
                .satisfies(
                        e -> {
                            String message = diskFullError(e);
                            assertThat(message)
                                    .containsPattern(
                                            "Cannot write spill file "
                                                    + java.util.regex.Pattern.quote(
                                                            disk.dir().toString())
                                                    + "/weir-bulk-\\S+ of table "
                                                    + java.util.regex.Pattern.quote(location)
                                                    + ": No space left on device");
                        });
        assertThat(Tables.load(location).currentSnapshot().id()).as("nothing committed").isZero();

        disk.free();
        bulkInsert(location, rows);
        assertThat(SinkTestTables.read(location)).isEqualTo(model(rows));
    }

    private void bulkInsert(String location, long rows) throws Exception {
        WeirSink sink =
                WeirSink.builder()
                        .location(location)
                        .writeMode(WriteMode.BULK_INSERT)
                        .writeBufferSize(1 << 20)
                        .spillDirectory(disk.dir().toString())
                        .build();
        Configuration conf = new Configuration();
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(org.apache.flink.api.common.RuntimeExecutionMode.BATCH);
        env.fromSource(
                        new NumberSequenceSource(0, rows - 1),
                        WatermarkStrategy.noWatermarks(),
                        "rows")
                .map(new BigRows(), sink.inputType())
                .sinkTo(sink)
                .setParallelism(2);
        env.execute("bulk insert, full spill disk");
    }

    private static JobClient submit(String location, Path checkpoints, Path restoreFrom)
            throws Exception {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.setString("restart-strategy.type", "none");
        conf.setString("execution.checkpointing.interval", "100ms");
        conf.setString("execution.checkpointing.dir", checkpoints.toUri().toString());
        conf.setString(
                "execution.checkpointing.externalized-checkpoint-retention",
                "RETAIN_ON_CANCELLATION");
        if (restoreFrom != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, restoreFrom.toUri().toString());
        }
        WeirSink sink = WeirSink.builder().location(location).build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.fromSource(
                        new NumberSequenceSource(0, ROWS - 1),
                        WatermarkStrategy.noWatermarks(),
                        "rows")
                .uid("rows")
                .setParallelism(1)
                .map(new BigRows(), sink.inputType())
                .uid("big-rows")
                .setParallelism(1)
                .sinkTo(sink)
                .uid("weir-sink")
                .setParallelism(2);
        return env.executeAsync("full disk");
    }

    /**
     * The first error in the chain that says the disk is full names a file and the table; returns
     * it.
     */
    private static String namesFileAndTable(Throwable failure, String location) {
        String full = diskFullError(failure);
        assertThat(full)
                .as("names a file of the table and the table")
                .containsPattern(
                        "(file|lease|writing) " + java.util.regex.Pattern.quote(location) + "/\\S+")
                .contains(" of table " + location);
        return full;
    }

    /** The first message in the chain that says the disk is full and names a table. */
    private static String diskFullError(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.add(String.valueOf(t.getMessage()));
        }
        return messages.stream()
                .filter(m -> m.contains("No space left on device") && m.contains(" of table "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("No clear error in " + messages));
    }

    /** Row {@code seq}: key seq, about 1 KB of incompressible text. */
    static final class BigRows implements MapFunction<Long, RowData> {
        @Override
        public RowData map(Long seq) throws Exception {
            if (seq % 4 == 0) {
                Thread.sleep(1);
            }
            return SinkTestTables.row(RowKind.INSERT, seq, DT, seq, text(seq));
        }
    }

    private static String text(long seq) {
        Random random = new Random(seq);
        char[] chars = new char[1000];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) ('!' + random.nextInt(94));
        }
        return new String(chars);
    }

    private static List<List<Object>> model(long n) {
        List<List<Object>> rows = new ArrayList<>();
        for (long seq = 0; seq < n; seq++) {
            rows.add(List.of(seq, DT, seq, text(seq)));
        }
        return Changes.sorted(rows);
    }

    private static Path latestCheckpoint(Path checkpoints, JobID job) throws Exception {
        Path jobDir = checkpoints.resolve(job.toHexString());
        Path best = null;
        long bestN = -1;
        try (Stream<Path> s = Files.list(jobDir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith("chk-") && Files.exists(p.resolve("_metadata"))) {
                    long n = Long.parseLong(name.substring(4));
                    if (n > bestN) {
                        bestN = n;
                        best = p;
                    }
                }
            }
        }
        return best;
    }
}
