package io.weir.flink.sink;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.CompactionResult;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.ScanTask;
import io.weir.Table;
import io.weir.Tables;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compaction inside a streaming ingestion job: base files appear while the job runs, a slow
 * compaction does not hold checkpoints (and so ingest commits) back, the newer runs of the groups a
 * slow round rewrites are merged meanwhile, the table ends equal to an independent model, and a
 * write-only table is never compacted by the job.
 */
class InJobCompactionTest {
    private static final int KEYS = 97;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @Test
    void slowCompactionDoesNotDelayCheckpoints(TestReporter reporter) throws Exception {
        // A bound far above what 2 s of ingestion adds: nothing holds the writers.
        Table table =
                create(Map.of("compaction.max-log-files", "3", "compaction.stall-runs", "100"));
        SlowCompactionHook hook = new SlowCompactionHook(table.location(), 2_000);
        long rows = 12_000;
        run(table, rows, hook);

        Table done = Tables.load(table.location());
        List<Commit> commits = commits(done);
        List<Commit> compactions =
                commits.stream().filter(c -> c.kind() == CommitKind.COMPACT).toList();
        assertThat(compactions).as("compaction commits").isNotEmpty();
        long lastAppend =
                commits.stream()
                        .filter(c -> c.kind() == CommitKind.APPEND)
                        .mapToLong(Commit::id)
                        .max()
                        .orElseThrow();
        assertThat(compactions.get(0).id())
                .as("a compaction landed while the job still ingested")
                .isLessThan(lastAppend);
        // The rounds write base files; the merges of newer runs while a round sleeps, log files.
        assertThat(compactions)
                .as("a compaction commit of base files only")
                .anySatisfy(
                        c ->
                                assertThat(c.added())
                                        .isNotEmpty()
                                        .allSatisfy(
                                                f ->
                                                        assertThat(f.kind())
                                                                .isEqualTo(FileKind.BASE)));

        // While the first round slept in its rewrite, checkpoints completed and ingest commits
        // landed at the checkpoint interval.
        long sleptFrom = SlowCompactionHook.start(table.location());
        long sleptTo = SlowCompactionHook.end(table.location());
        long appendsDuringSleep =
                commits.stream()
                        .filter(c -> c.kind() == CommitKind.APPEND)
                        .filter(
                                c ->
                                        c.timestampMillis() > sleptFrom
                                                && c.timestampMillis() < sleptTo)
                        .count();
        reporter.publishEntry(
                "commits",
                commits.size()
                        + " commits, "
                        + compactions.size()
                        + " compactions, "
                        + appendsDuringSleep
                        + " ingest commits during the 2 s compaction");
        assertThat(sleptTo).as("the slow round ran to its end").isGreaterThan(sleptFrom);
        assertThat(appendsDuringSleep)
                .as("ingest commits during the slow compaction")
                .isGreaterThanOrEqualTo(5);
        assertThat(SinkTestTables.read(table.location())).isEqualTo(Changes.keyedModel(rows, KEYS));
    }

    /**
     * A slow round with the back-pressure bound just above the trigger, and the merges of newer
     * runs as slow while it runs: writers wait at their checkpoints instead of piling runs onto the
     * groups compaction has not merged yet, so no snapshot's group holds more than the bound plus
     * the checkpoint in flight.
     */
    @Test
    void slowCompactionHoldsTheWritersAtTheStallBound() throws Exception {
        Table table = create(Map.of("compaction.max-log-files", "2", "compaction.stall-runs", "3"));
        SlowCompactionHook hook =
                new SlowCompactionHook(table.location() + "#held", 2_000).slowingEveryMerge();
        long rows = 12_000;
        run(table, rows, hook);

        Table done = Tables.load(table.location());
        List<Commit> commits = commits(done);
        long sleptFrom = SlowCompactionHook.start(table.location() + "#held");
        long sleptTo = SlowCompactionHook.end(table.location() + "#held");
        long appendsDuringSleep =
                commits.stream()
                        .filter(c -> c.kind() == CommitKind.APPEND)
                        .filter(
                                c ->
                                        c.timestampMillis() > sleptFrom
                                                && c.timestampMillis() < sleptTo)
                        .count();
        assertThat(appendsDuringSleep)
                .as("ingest commits while the round slept (without the bound: 5 or more)")
                .isLessThanOrEqualTo(3);
        assertThat(mostRunsAfterTheBase(done, commits))
                .as("sorted runs after the base, any group, any snapshot")
                .isLessThanOrEqualTo(4);
        assertThat(SinkTestTables.read(table.location())).isEqualTo(Changes.keyedModel(rows, KEYS));
    }

    /**
     * A slow round (as one that rewrites a large base is) does not hold the writers: while it runs,
     * the runs that ingest commits add to its groups are merged among themselves, so the groups
     * stay below the bound, ingestion goes on, and the table ends equal to the model.
     */
    @Test
    void whileASlowRoundRunsTheNewerRunsOfItsGroupsAreMerged() throws Exception {
        Table table = create(Map.of("compaction.max-log-files", "2", "compaction.stall-runs", "5"));
        String name = table.location() + "#newer";
        SlowCompactionHook hook = new SlowCompactionHook(name, 3_000);
        long rows = 20_000;
        run(table, rows, hook);

        Table done = Tables.load(table.location());
        List<Commit> commits = commits(done);
        long sleptFrom = SlowCompactionHook.start(name);
        long sleptTo = SlowCompactionHook.end(name);
        List<Commit> during =
                commits.stream()
                        .filter(
                                c ->
                                        c.timestampMillis() > sleptFrom
                                                && c.timestampMillis() < sleptTo)
                        .toList();
        assertThat(during.stream().filter(c -> c.kind() == CommitKind.APPEND).count())
                .as("ingest commits while the round slept")
                .isGreaterThanOrEqualTo(5);
        assertThat(during.stream().filter(c -> c.kind() == CommitKind.COMPACT).count())
                .as("merges of newer runs while the round slept")
                .isGreaterThanOrEqualTo(1);
        assertThat(mostRunsAfterTheBase(done, commits))
                .as("sorted runs after the base, any group, any snapshot")
                .isLessThanOrEqualTo(6);
        assertThat(SinkTestTables.read(table.location())).isEqualTo(Changes.keyedModel(rows, KEYS));
    }

    @Test
    void writeOnlyTableIsNotCompactedByTheJob() throws Exception {
        Table table = create(Map.of("compaction.max-log-files", "2", "write-only", "true"));
        long rows = 3_000;
        run(table, rows, null);

        Table done = Tables.load(table.location());
        assertThat(commits(done)).extracting(Commit::kind).containsOnly(CommitKind.APPEND);
        long mostLogs =
                done.currentSnapshot().fileGroups().values().stream()
                        .mapToLong(List::size)
                        .max()
                        .orElse(0);
        assertThat(mostLogs).as("logs of a file group (compaction was due)").isGreaterThan(2);
        assertThat(SinkTestTables.read(table.location())).isEqualTo(Changes.keyedModel(rows, KEYS));
    }

    private Table create(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(options);
        all.put("bucket", "2");
        all.put("write-buffer-size", "4mb");
        return Tables.create(dir.toString(), SinkTestTables.keyedSchema(), all);
    }

    private static void run(Table table, long rows, WeirSinkHook hook) throws Exception {
        WeirSinkBuilder builder = WeirSink.builder().location(table.location());
        if (hook != null) {
            builder.hook(hook);
        }
        WeirSink sink = builder.build();
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
        env.execute("in-job compaction");
    }

    /** The most sorted runs after its base that any group held in any snapshot. */
    private static int mostRunsAfterTheBase(Table table, List<Commit> commits) {
        int most = 0;
        for (Commit c : commits) {
            for (ScanTask group : table.newScan().useSnapshot(c.id()).plan()) {
                most = Math.max(most, group.deltaRuns());
            }
        }
        return most;
    }

    static List<Commit> commits(Table table) {
        List<Commit> commits = new ArrayList<>();
        for (long id = table.earliestRetainedCommit() + 1;
                id <= table.currentSnapshot().id();
                id++) {
            commits.add(table.commit(id));
        }
        return commits;
    }

    /**
     * Sleeps in the first compaction round's rewrite and records when; with {@link
     * #slowingEveryMerge}, any merge that starts during that sleep (of newer runs, on the other
     * lane) waits until it ends.
     */
    static final class SlowCompactionHook implements WeirSinkHook {
        private static final Map<String, long[]> TIMES = new ConcurrentHashMap<>();
        private static final AtomicLong ROUNDS = new AtomicLong();
        private final String name;
        private final long sleepMillis;
        private boolean everyMerge;

        SlowCompactionHook(String name, long sleepMillis) {
            this.name = name;
            this.sleepMillis = sleepMillis;
        }

        SlowCompactionHook slowingEveryMerge() {
            everyMerge = true;
            return this;
        }

        @Override
        public void beforeRewrite(List<FileGroupId> groups) {
            long[] times = TIMES.computeIfAbsent(name, k -> new long[2]);
            boolean first;
            synchronized (times) {
                first = times[0] == 0;
                if (first) {
                    times[0] = System.currentTimeMillis();
                }
            }
            long until = times[0] + sleepMillis;
            if (first || (everyMerge && System.currentTimeMillis() < until)) {
                sleepUntil(until);
            }
            if (first) {
                times[1] = System.currentTimeMillis();
            }
            ROUNDS.incrementAndGet();
        }

        private static void sleepUntil(long millis) {
            try {
                long left;
                while ((left = millis - System.currentTimeMillis()) > 0) {
                    Thread.sleep(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void afterCompaction(CompactionResult result) {}

        static long start(String name) {
            return TIMES.get(name)[0];
        }

        static long end(String name) {
            return TIMES.get(name)[1];
        }
    }
}
