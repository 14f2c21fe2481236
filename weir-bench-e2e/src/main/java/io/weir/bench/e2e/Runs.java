package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.JobSettings;
import io.weir.bench.e2e.job.Phase;
import io.weir.bench.e2e.job.SinkKind;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Runs of one session: each in a child JVM, with the session's Flink settings. */
final class Runs {
    private final Workspace workspace;
    private final ChildJvm jvm;
    private final RunSetup setup;
    private final PrintStream progress;
    private final RemoteStore store;

    Runs(Workspace workspace, ChildJvm jvm, RunSetup setup, PrintStream progress) {
        this(workspace, jvm, setup, progress, null);
    }

    /**
     * @param store the storage of {@code --warehouse} (S3 or HDFS), or null
     */
    Runs(
            Workspace workspace,
            ChildJvm jvm,
            RunSetup setup,
            PrintStream progress,
            RemoteStore store) {
        this.workspace = workspace;
        this.jvm = jvm;
        this.setup = setup;
        this.progress = progress;
        this.store = store;
    }

    RemoteStore store() {
        return store;
    }

    RunSetup setup() {
        return setup;
    }

    Workspace workspace() {
        return workspace;
    }

    /**
     * The default rows of a run: BENCHMARK.md's (schema1 20 M, schema2 4 M, schema3 2 M, schema4 1
     * M; Hudi and its ceiling 5 M on schema1) times {@code scale}, at least 1,000.
     */
    static long defaultRows(SinkKind sink, Workload workload, double scale) {
        long base =
                workload == Workload.SCHEMA1 && sink.ceiling() == SinkKind.BLACKHOLE117
                        ? 5_000_000L
                        : workload.defaultRows();
        return Math.max(1_000, Math.round(base * scale));
    }

    /** The phases of a run: ingest, the lifecycle's phases if asked, and the check. */
    static List<Phase> phases(SinkKind sink, boolean lifecycle, boolean verify) {
        if (!sink.writesTable()) {
            return List.of(Phase.INGEST);
        }
        if (lifecycle) {
            return verify
                    ? List.of(Phase.INGEST, Phase.COMPACT, Phase.COUNT, Phase.SCAN, Phase.VERIFY)
                    : List.of(Phase.INGEST, Phase.COMPACT, Phase.COUNT, Phase.SCAN);
        }
        return verify ? List.of(Phase.INGEST, Phase.VERIFY) : List.of(Phase.INGEST);
    }

    /** Runs one sink on one workload in a child JVM; a failed run is a result too. */
    RunResult run(SinkKind sink, Workload workload, long rows, List<Phase> phases)
            throws IOException, InterruptedException {
        return run(sink, workload, rows, phases, store != null);
    }

    /**
     * Runs one sink on one workload in a child JVM; with {@code remote} (and a session store) a
     * table's warehouse is on the store (S3 or HDFS).
     */
    RunResult run(SinkKind sink, Workload workload, long rows, List<Phase> phases, boolean remote)
            throws IOException, InterruptedException {
        return run(sink, workload, rows, phases, remote, setup);
    }

    /** Runs one sink on one workload in a child JVM with other settings than the session's. */
    RunResult run(
            SinkKind sink,
            Workload workload,
            long rows,
            List<Phase> phases,
            boolean onStore,
            RunSetup setup)
            throws IOException, InterruptedException {
        boolean remote = onStore && store != null && sink.writesTable();
        if (remote && sink != SinkKind.WEIR && sink != SinkKind.PAIMON) {
            throw new IllegalArgumentException(
                    "--warehouse runs weir and paimon (and the blackhole), not " + sink.id());
        }
        String suffix = remote ? "-" + store.name().toLowerCase(Locale.ROOT) : "";
        Path dir = workspace.newRunDir(sink.id() + suffix, workload.id(), rows);
        JobSettings settings =
                JobSettings.builder(sink, workload, rows, dir)
                        .parallelism(setup.parallelism())
                        .buckets(setup.buckets())
                        .partitions(setup.partitions())
                        .checkpointIntervalMs(setup.checkpointIntervalMs())
                        .phases(phases)
                        .bulkInsert(setup.bulkInsert())
                        .source(setup.source())
                        .remote(remote ? store.forRun(dir.getFileName().toString()) : null)
                        .compaction(setup.compaction())
                        .tableOptions(setup.tableOptions())
                        .keys(setup.keys() > 0 ? setup.keys() : Workload.keys(rows))
                        .timeLimitSeconds(setup.timeLimitSeconds())
                        .build();
        progress.printf(
                Locale.ROOT,
                "weir bench: %s%s%s%s, %s, %,d rows%s, phases %s ...%n",
                sink.id(),
                remote ? " on " + store.name() : "",
                setup.compaction()
                        ? " (compaction on, bucket="
                                + setup.buckets()
                                + (setup.partitions() > 1
                                        ? ", partitions=" + setup.partitions()
                                        : "")
                                + ")"
                        : "",
                setup.tableOptions().isEmpty() || !sink.writesTable()
                        ? ""
                        : " with " + setup.tableOptions(),
                workload.id(),
                rows,
                setup.keys() > 0 ? String.format(Locale.ROOT, " over %,d keys", setup.keys()) : "",
                String.join(",", phases.stream().map(Phase::id).toList()));
        RunResult result = jvm.run(settings, workspace.logOf(dir));
        workspace.finished(settings);
        if (remote) {
            store.finished(dir.getFileName().toString());
        }
        if (result.ok() && result.stopped()) {
            progress.printf(
                    Locale.ROOT,
                    "weir bench:   stopped at its time limit after %.1f s%n",
                    result.ingest().seconds());
        } else if (result.ok()) {
            progress.printf(
                    Locale.ROOT,
                    "weir bench:   %.1f s, %,.0f rows/s, verified %s%n",
                    result.ingest().seconds(),
                    result.rowsPerSecond(),
                    result.verified());
        } else {
            progress.printf("weir bench:   FAILED: %s%n", result.failure());
        }
        return result;
    }
}
