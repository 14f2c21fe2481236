package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.SinkKind;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code weir bench --all --compaction on|long} (docs/benchmark.md, "Compaction on"): every sink
 * with its default in-writer compaction on each workload, repeated and interleaved as {@link Suite}
 * does, with their blackhole ceilings; then the fan-out runs (the same ingestion into 1 ... 10,000
 * file groups, in buckets or in partitions of buckets, for memory, each stopped after {@code
 * fanOutSeconds} if it has not ended); then BENCHMARKS-compaction.md and its chart. The long
 * variant runs schema1 once per sink at ten times BENCHMARK.md's rows (or {@code --rows}), without
 * fan-out and without reading the tables back, for its timeline.
 */
final class CompactionSuite {
    static final List<FanOut> DEFAULT_FAN_OUT =
            List.of(
                    new FanOut(1, 1),
                    new FanOut(1, 100),
                    new FanOut(1, 1_000),
                    new FanOut(1, 10_000));

    /**
     * How long a fan-out run ingests at most: at 1,000 buckets and more a peer takes hours for
     * BENCHMARK.md's rows, and memory is what these runs measure.
     */
    static final long DEFAULT_FAN_OUT_SECONDS = 300;

    /** The long variant's rows: BENCHMARK.md's times this (then times --rows-scale). */
    static final int LONG_FACTOR = 10;

    private final List<SinkKind> sinks;
    private final List<Workload> workloads;
    private final double rowsScale;
    private final Long rows;
    private final int repeat;
    private final List<FanOut> fanOut;
    private final long fanOutSeconds;
    private final boolean longRun;
    private final boolean verify;

    /**
     * @param sinks the sinks; their blackhole ceilings are added
     * @param rows the rows of every run, or null for BENCHMARK.md's times {@code rowsScale}
     * @param fanOut the file groups of the fan-out runs (none: empty)
     * @param fanOutSeconds the most seconds a fan-out run ingests (0: no limit)
     */
    CompactionSuite(
            List<SinkKind> sinks,
            List<Workload> workloads,
            double rowsScale,
            Long rows,
            int repeat,
            List<FanOut> fanOut,
            long fanOutSeconds,
            boolean longRun,
            boolean verify) {
        if (repeat < 1 || !(rowsScale > 0) || (rows != null && rows < 1)) {
            throw new IllegalArgumentException(
                    "--repeat, --rows and --rows-scale must be positive");
        }
        if (fanOutSeconds < 0) {
            throw new IllegalArgumentException("--time-limit must not be negative");
        }
        for (SinkKind s : sinks) {
            if (s == SinkKind.SHUFFLE) {
                throw new IllegalArgumentException(
                        "--compaction runs weir, paimon and hudi (and their blackholes), not "
                                + s.id());
            }
        }
        Set<SinkKind> all = new TreeSet<>(sinks);
        sinks.forEach(s -> all.add(s.ceiling()));
        this.sinks = List.copyOf(all); // enum order: each ceiling before its sinks
        this.workloads = List.copyOf(workloads);
        this.rowsScale = rowsScale;
        this.rows = rows;
        this.repeat = repeat;
        this.fanOut = List.copyOf(fanOut);
        this.fanOutSeconds = fanOutSeconds;
        this.longRun = longRun;
        this.verify = verify;
    }

    List<SinkKind> sinks() {
        return sinks;
    }

    long rowsOf(SinkKind sink, Workload workload) {
        if (rows != null) {
            return rows;
        }
        return Runs.defaultRows(sink, workload, longRun ? rowsScale * LONG_FACTOR : rowsScale);
    }

    /** Runs the suite, prints each run's JSON line, writes the report; 0 if all went well. */
    int run(Runs runs, PrintStream out, Path report, String commandLine)
            throws IOException, InterruptedException {
        Instant start = Instant.now();
        String loadBefore = MachineInfo.loadAverage();
        List<RunResult> ingestion = new ArrayList<>();
        for (int round = 0; round < repeat; round++) {
            for (Workload workload : workloads) {
                for (SinkKind sink : sinks) {
                    RunResult result =
                            runs.run(
                                    sink,
                                    workload,
                                    rowsOf(sink, workload),
                                    Runs.phases(sink, false, verify));
                    out.println(result.summary());
                    ingestion.add(result);
                }
            }
        }
        List<RunResult> fanOutRuns = new ArrayList<>();
        for (FanOut groups : fanOut) {
            for (SinkKind sink : sinks) {
                if (!sink.writesTable()) {
                    continue;
                }
                RunResult result =
                        runs.run(
                                sink,
                                Workload.SCHEMA1,
                                rowsOf(sink, Workload.SCHEMA1),
                                Runs.phases(sink, false, verify),
                                false,
                                runs.setup().forFanOut(groups, fanOutSeconds));
                out.println(result.summary());
                fanOutRuns.add(result);
            }
        }
        CompactionReport.Results results =
                new CompactionReport.Results(
                        start,
                        Instant.now(),
                        loadBefore,
                        MachineInfo.loadAverage(),
                        commandLine,
                        runs.setup(),
                        repeat,
                        longRun,
                        ingestion,
                        fanOutRuns);
        CompactionReport.write(report, results);
        boolean good =
                ingestion.stream().allMatch(CompactionSuite::good)
                        && fanOutRuns.stream().allMatch(CompactionSuite::good);
        return good ? 0 : 1;
    }

    private static boolean good(RunResult r) {
        return r.ok() && !Boolean.FALSE.equals(r.verified());
    }
}
