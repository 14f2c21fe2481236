package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.SinkKind;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code weir bench --all}: every sink on every workload, repeated and interleaved (all sinks of a
 * workload one after another, then the next workload, then the next round), so that a slow phase of
 * the shared machine hits every sink alike; then one lifecycle run (ingest, compact, count, scan)
 * per sink with a table and workload; then the report.
 */
final class Suite {
    private final List<SinkKind> sinks;
    private final List<Workload> workloads;
    private final double rowsScale;
    private final int repeat;
    private final boolean lifecycle;
    private final boolean verify;

    /**
     * @param sinks the sinks to run; the blackhole ceilings of those on each Flink are added
     */
    Suite(
            List<SinkKind> sinks,
            List<Workload> workloads,
            double rowsScale,
            int repeat,
            boolean lifecycle,
            boolean verify) {
        if (repeat < 1 || !(rowsScale > 0)) {
            throw new IllegalArgumentException("--repeat and --rows-scale must be positive");
        }
        Set<SinkKind> all = new TreeSet<>(sinks);
        sinks.forEach(s -> all.add(s.ceiling()));
        this.sinks = List.copyOf(all); // enum order: each ceiling before its sinks
        this.workloads = List.copyOf(workloads);
        this.rowsScale = rowsScale;
        this.repeat = repeat;
        this.lifecycle = lifecycle;
        this.verify = verify;
    }

    List<SinkKind> sinks() {
        return sinks;
    }

    /** Runs the suite, prints each run's JSON line, writes the report; 0 if all went well. */
    int run(Runs runs, PrintStream out, ReportWriter report)
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
                                    Runs.defaultRows(sink, workload, rowsScale),
                                    Runs.phases(sink, false, verify));
                    out.println(result.summary());
                    ingestion.add(result);
                }
            }
        }
        List<RunResult> lifecycles = new ArrayList<>();
        if (lifecycle) {
            for (Workload workload : workloads) {
                for (SinkKind sink : sinks) {
                    if (sink.writesTable()) {
                        RunResult result =
                                runs.run(
                                        sink,
                                        workload,
                                        Runs.defaultRows(sink, workload, rowsScale),
                                        Runs.phases(sink, true, verify));
                        out.println(result.summary());
                        lifecycles.add(result);
                    }
                }
            }
        }
        SuiteResults results =
                new SuiteResults(
                        start,
                        Instant.now(),
                        loadBefore,
                        MachineInfo.loadAverage(),
                        rowsScale,
                        repeat,
                        ingestion,
                        lifecycles);
        report.write(results);
        boolean good =
                ingestion.stream().allMatch(Suite::good)
                        && lifecycles.stream().allMatch(Suite::good);
        return good ? 0 : 1;
    }

    private static boolean good(RunResult r) {
        return r.ok() && !Boolean.FALSE.equals(r.verified());
    }
}
