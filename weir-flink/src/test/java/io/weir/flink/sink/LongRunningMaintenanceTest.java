package io.weir.flink.sink;

import io.weir.CommitKind;
import io.weir.CompactionResult;
import io.weir.Table;
import io.weir.Tables;
import io.weir.testing.Rows;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hours of a production table in seconds: a streaming job commits every 50 ms, compacts in the
 * background and expires snapshots after its rounds. While it runs, what a reader pays (files per
 * file group) and what loading the table costs (commit and checkpoint files) stay bounded however
 * many commits pass; afterwards every retained snapshot equals an independent model of a prefix of
 * the change stream, and the table equals the model of all of it.
 */
class LongRunningMaintenanceTest {
    private static final int KEYS = 97;
    private static final long ROWS = 24_000;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @Test
    void filesAndMetadataStayBoundedAndEverySnapshotIsRight(TestReporter reporter)
            throws Exception {
        Table table =
                Tables.create(
                        dir.toString(),
                        SinkTestTables.keyedSchema(),
                        Map.of(
                                "bucket", "2",
                                "write-buffer-size", "4mb",
                                "compaction.max-log-files", "4",
                                "snapshot.expire.in-job", "true",
                                "snapshot.num-retained.min", "5",
                                "snapshot.time-retained", "1 s",
                                "metadata.checkpoint-interval", "10"));
        WeirSink sink =
                WeirSink.builder()
                        .location(table.location())
                        .hook(new CountingHook(table.location()))
                        .build();
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
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
        JobClient job = env.executeAsync("long-running maintenance");

        int maxFilesPerGroup = 0;
        long maxMetadataFiles = 0;
        long samples = 0;
        while (!job.getJobExecutionResult().isDone()) {
            Table now = Tables.load(table.location());
            int files =
                    now.currentSnapshot().fileGroups().values().stream()
                            .mapToInt(List::size)
                            .max()
                            .orElse(0);
            if (CountingHook.rounds(table.location()) >= 2) {
                maxFilesPerGroup = Math.max(maxFilesPerGroup, files);
            }
            maxMetadataFiles = Math.max(maxMetadataFiles, metadataFiles(dir));
            samples++;
            Thread.sleep(100);
        }
        job.getJobExecutionResult().get();

        Table done = Tables.load(table.location());
        long latest = done.currentSnapshot().id();
        long earliest = done.earliestRetainedCommit();
        long compactions = 0;
        for (long id = Math.max(1, earliest); id <= latest; id++) {
            if (done.commit(id).kind() == CommitKind.COMPACT) {
                compactions++;
            }
        }
        reporter.publishEntry(
                "history",
                String.format(
                        "%d commits, retained %d..%d (%d compactions among them), at most %d"
                                + " files per group (from the second round on: warm-up) and %d"
                                + " metadata files over %d samples; %d compaction rounds",
                        latest,
                        earliest,
                        latest,
                        compactions,
                        maxFilesPerGroup,
                        maxMetadataFiles,
                        samples,
                        CountingHook.rounds(table.location())));

        assertThat(latest).as("commits").isGreaterThan(60);
        assertThat(earliest).as("snapshots expired in the job").isGreaterThan(latest / 2);
        assertThat(maxFilesPerGroup).as("files per file group").isLessThanOrEqualTo(20);
        assertThat(maxMetadataFiles)
                .as("commit and checkpoint files, against %d commits", latest)
                .isLessThan(latest / 2 + 20);

        // Every retained snapshot holds a prefix of the change stream, in order.
        long previousPrefix = 0;
        for (long id = earliest; id <= latest; id++) {
            List<List<Object>> rows =
                    Changes.sorted(
                            Rows.readAll(
                                    done.newScan().useSnapshot(id).rows(),
                                    done.schema().rowType(),
                                    false));
            long prefix = matchingPrefix(rows, previousPrefix);
            assertThat(prefix).as("snapshot %d is the table after some prefix", id).isPositive();
            previousPrefix = prefix;
        }
        assertThat(SinkTestTables.read(table.location())).isEqualTo(Changes.keyedModel(ROWS, KEYS));
    }

    /**
     * The length n >= {@code atLeast} of the change-stream prefix whose model equals {@code rows},
     * or -1. The greatest v in the rows is the last change applied that is still visible; changes
     * after it up to the prefix's end are invisible (deletes, ignored update-befores), so n is
     * within a few steps after it.
     */
    private static long matchingPrefix(List<List<Object>> rows, long atLeast) {
        long maxV = rows.stream().mapToLong(r -> (Long) r.get(2)).max().orElse(-1);
        for (long n = Math.max(atLeast, maxV + 1); n <= Math.min(ROWS, maxV + 12); n++) {
            if (Changes.keyedModel(n, KEYS).equals(rows)) {
                return n;
            }
        }
        return -1;
    }

    /**
     * Counts the compaction rounds that committed. The first round of a fresh JVM is slow (class
     * loading, JIT), and logs pile up while it runs until the second round folds them; the bound
     * holds from then on.
     */
    static final class CountingHook implements WeirSinkHook {
        private static final Map<String, AtomicLong> ROUNDS = new ConcurrentHashMap<>();
        private final String name;

        CountingHook(String name) {
            this.name = name;
        }

        @Override
        public void afterCompaction(CompactionResult result) {
            ROUNDS.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
        }

        static long rounds(String name) {
            AtomicLong n = ROUNDS.get(name);
            return n == null ? 0 : n.get();
        }
    }

    private static long metadataFiles(Path table) throws IOException {
        long n = 0;
        for (String sub : List.of("commits", "checkpoints")) {
            Path d = table.resolve("_weir").resolve(sub);
            if (Files.isDirectory(d)) {
                try (Stream<Path> files = Files.list(d)) {
                    n += files.count();
                }
            }
        }
        return n;
    }
}
