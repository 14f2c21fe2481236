package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.SinkKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The medians of the repeated runs of one sink on one workload and row count (failed runs left out;
 * {@code runs} counts the others), and each round's rows/s in suite order (NaN where that round's
 * run failed), which pairs a run with its ceiling's run of the same round.
 */
record SinkMedians(
        SinkKind sink,
        Workload workload,
        long rows,
        int runs,
        int failed,
        double seconds,
        double rowsPerSecond,
        double cpuSeconds,
        double gcSeconds,
        double peakRssMb,
        double tableBytes,
        Boolean verified,
        List<Double> rowsPerSecondByRound) {

    SinkMedians {
        rowsPerSecondByRound = List.copyOf(rowsPerSecondByRound);
    }

    /** The medians of each (sink, workload, rows), in the order of their first run. */
    static List<SinkMedians> of(List<RunResult> results) {
        Map<String, List<RunResult>> groups = new LinkedHashMap<>();
        for (RunResult r : results) {
            String key =
                    r.settings().sink() + "/" + r.settings().workload() + "/" + r.settings().rows();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
        List<SinkMedians> medians = new ArrayList<>();
        for (List<RunResult> group : groups.values()) {
            List<RunResult> ok = group.stream().filter(RunResult::ok).toList();
            RunResult first = group.get(0);
            Boolean verified = null;
            for (RunResult r : group) {
                Boolean v = r.verified();
                if (v != null) {
                    verified = (verified == null || verified) && v;
                }
            }
            medians.add(
                    new SinkMedians(
                            first.settings().sink(),
                            first.settings().workload(),
                            first.settings().rows(),
                            ok.size(),
                            group.size() - ok.size(),
                            median(ok, r -> r.ingest().seconds()),
                            median(ok, RunResult::rowsPerSecond),
                            median(ok, r -> r.ingest().cpuSeconds()),
                            median(ok, r -> r.ingest().gcSeconds()),
                            median(ok, r -> r.ingest().peakRssMb()),
                            median(ok, r -> r.ingest().tableBytes()),
                            verified,
                            group.stream().map(RunResult::rowsPerSecond).toList()));
        }
        return medians;
    }

    /** The median (the mean of the middle two for an even count); NaN for none. */
    static double median(List<RunResult> runs, ToDoubleFunction<RunResult> figure) {
        double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
        return median(values);
    }

    static double median(double[] sorted) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double[] v = Arrays.copyOf(sorted, sorted.length);
        Arrays.sort(v);
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }

    /** CPU per row that the sink adds to its blackhole ceiling's at the same rows, in µs. */
    double sinkCpuMicrosPerRow(SinkMedians ceiling) {
        return (cpuSeconds - ceiling.cpuSeconds) / rows * 1e6;
    }

    /** Throughput as a share of the ceiling's at the same rows, 0..1. */
    double shareOf(SinkMedians ceiling) {
        return rowsPerSecond / ceiling.rowsPerSecond;
    }

    /**
     * Each round's throughput as a share of the ceiling's run in the same round (NaN where either
     * failed). The suite runs a workload's sinks one after another, so a round's pair ran minutes
     * apart; a machine whose speed drifts between rounds moves these less than the medians.
     */
    List<Double> roundSharesOf(SinkMedians ceiling) {
        int rounds = Math.min(rowsPerSecondByRound.size(), ceiling.rowsPerSecondByRound.size());
        List<Double> shares = new ArrayList<>(rounds);
        for (int i = 0; i < rounds; i++) {
            shares.add(rowsPerSecondByRound.get(i) / ceiling.rowsPerSecondByRound.get(i));
        }
        return shares;
    }
}
