package io.weir.bench;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.commit.TableState;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A table state with one more commit: what every commit, and every writer catching up with one,
 * pays (docs/performance.md, "The table state shared between commits"). The state holds {@code
 * groups} file groups (buckets of one partition) of a base and five logs each. {@code
 * compactionCommit}: a compaction round of 64 groups, each group's five logs replaced by one run;
 * {@code ingestCommit}: a checkpoint that adds one log to every group. Score: µs per commit.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class TableStateBenchmark implements Verifiable {
    private static final int LOGS_PER_GROUP = 5;
    private static final int ROUND_GROUPS = 64;

    @Param({"4", "1000", "10000"})
    public int groups;

    private TableState state;
    private Commit compaction;
    private Commit ingest;

    @Setup
    public void setup() {
        List<DataFile> files = new ArrayList<>();
        long sequence = 0;
        for (int b = 0; b < groups; b++) {
            files.add(file(b, FileKind.BASE, ++sequence, "base"));
            for (int i = 0; i < LOGS_PER_GROUP; i++) {
                files.add(file(b, FileKind.LOG, ++sequence, "log" + i));
            }
        }
        state = TableState.empty(0, 0).apply(commit(1, files, List.of()));
        List<DataFile> merged = new ArrayList<>();
        List<String> replaced = new ArrayList<>();
        for (int b = 0; b < Math.min(groups, ROUND_GROUPS); b++) {
            merged.add(file(b, FileKind.LOG, sequence, "merged"));
            for (int i = 0; i < LOGS_PER_GROUP; i++) {
                replaced.add(path(b, "log" + i));
            }
        }
        compaction = commit(2, merged, replaced);
        List<DataFile> logs = new ArrayList<>();
        for (int b = 0; b < groups; b++) {
            logs.add(file(b, FileKind.LOG, sequence + 1 + b, "new"));
        }
        ingest = commit(2, logs, List.of());
    }

    /** The new state's file count, which {@link #verify} checks. */
    @Benchmark
    public long compactionCommit() {
        return state.apply(compaction).fileCount();
    }

    @Benchmark
    public long ingestCommit() {
        return state.apply(ingest).fileCount();
    }

    @Override
    public void verify(String method, long result) {
        long files = (long) groups * (1 + LOGS_PER_GROUP);
        long expected =
                switch (method) {
                    case "compactionCommit" ->
                            files - (long) Math.min(groups, ROUND_GROUPS) * (LOGS_PER_GROUP - 1);
                    case "ingestCommit" -> files + groups;
                    default -> throw new IllegalArgumentException(method);
                };
        Verifiable.check(result == expected, "%s: %s files, expected %s", method, result, expected);
    }

    private static Commit commit(long id, List<DataFile> added, List<String> removed) {
        return new Commit(id, id, CommitKind.APPEND, 0, null, -1, added, removed, Map.of());
    }

    private static String path(int bucket, String name) {
        return "bucket-" + bucket + "/" + name + "-00000000-0000-0000-0000-000000000000.wlog";
    }

    private static DataFile file(int bucket, FileKind kind, long sequence, String name) {
        return new DataFile(
                path(bucket, name),
                kind,
                Partition.of(),
                bucket,
                100_000,
                10_000_000,
                sequence,
                0,
                List.of(Long.toString(bucket)),
                List.of(Long.toString(bucket + 1_000_000L)),
                Map.of());
    }
}
