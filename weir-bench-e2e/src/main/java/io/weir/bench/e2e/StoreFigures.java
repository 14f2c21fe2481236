package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.SinkKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The runs of a {@link StoreSuite} and the figures its report derives from them: medians over runs,
 * a store counter per commit ({@code <prefix><key>} of the ingestion's JSON, {@code s3_} or {@code
 * hdfs_}), its steady state, the sinks' CPU above the blackhole, commit latency percentiles.
 */
final class StoreFigures {
    /** One sink on one storage (the store, or local disk). */
    record Entry(SinkKind sink, boolean remote) {
        String label(String store) {
            return sink.id()
                    + (sink.writesTable() ? (remote ? " (" + store + ")" : " (local disk)") : "");
        }
    }

    private final Map<Entry, List<RunResult>> results;
    private final String prefix;

    StoreFigures(Map<Entry, List<RunResult>> results, String prefix) {
        this.results = results;
        this.prefix = prefix;
    }

    /** The runs of an entry on a workload, in the order they ran. */
    List<RunResult> runs(Entry e, Workload w) {
        return results.getOrDefault(e, List.of()).stream()
                .filter(r -> r.settings().workload() == w)
                .toList();
    }

    /** The median over the successful runs of a figure (NaN figures left out). */
    static double median(List<RunResult> runs, ToDoubleFunction<RunResult> f) {
        double[] v =
                runs.stream()
                        .filter(RunResult::ok)
                        .mapToDouble(f)
                        .filter(d -> !Double.isNaN(d))
                        .sorted()
                        .toArray();
        return SinkMedians.median(v);
    }

    /** A figure of the ingestion's JSON line. */
    static double fig(RunResult r, String key) {
        return r.ingest().figure(key);
    }

    /** A store counter of the ingestion ({@code <prefix><key>}). */
    double counter(RunResult r, String key) {
        return fig(r, prefix + key);
    }

    /** A store counter divided by the run's commits. */
    double perCommit(RunResult r, String key) {
        double commits = fig(r, "commits");
        return commits > 0 ? counter(r, key) / commits : Double.NaN;
    }

    /** A figure divided by the run's commits. */
    static double perCommitOf(RunResult r, String figure) {
        double commits = fig(r, "commits");
        return commits > 0 ? fig(r, figure) / commits : Double.NaN;
    }

    /** Per commit from the first commit of the run to the one before its last (steady state). */
    double steady(RunResult r, String key) {
        double commits = fig(r, "steady_commits");
        return commits > 0 ? fig(r, prefix + "steady_" + key) / commits : Double.NaN;
    }

    /** The median of a store counter per commit over the runs. */
    double medianPerCommit(List<RunResult> runs, String key) {
        return median(runs, r -> perCommit(r, key));
    }

    /** The median of a steady-state counter per commit over the runs. */
    double medianSteady(List<RunResult> runs, String key) {
        return median(runs, r -> steady(r, key));
    }

    /**
     * Sink CPU in µs per row: (the entry's median job CPU − the blackhole's at the same workload) /
     * rows; NaN without runs.
     */
    double sinkCpuMicrosPerRow(Entry e, Workload w) {
        List<RunResult> runs = runs(e, w);
        List<RunResult> ceiling = runs(new Entry(SinkKind.BLACKHOLE, false), w);
        if (runs.isEmpty() || ceiling.isEmpty()) {
            return Double.NaN;
        }
        long rows = runs.get(0).settings().rows();
        return (median(runs, r -> r.ingest().cpuSeconds())
                        - median(ceiling, r -> r.ingest().cpuSeconds()))
                / rows
                * 1e6;
    }

    /** Every commit's duration of the runs, sorted. */
    static double[] latencies(List<RunResult> runs) {
        List<Double> all = new ArrayList<>();
        for (RunResult r : runs) {
            if (!r.ok() || r.ingest().json() == null) {
                continue;
            }
            String text = r.ingest().json().path("commit_ms").asText("");
            for (String part : text.replaceAll("[\\[\\]\\s]", "").split(",")) {
                if (!part.isEmpty()) {
                    all.add(Double.parseDouble(part));
                }
            }
        }
        return all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    /** The nearest-rank percentile of sorted values; NaN for none. */
    static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    static String verified(List<RunResult> runs) {
        Boolean verified = null;
        for (RunResult r : runs) {
            Boolean v = r.verified();
            if (v != null) {
                verified = (verified == null || verified) && v;
            }
        }
        return verified == null ? "–" : verified ? "yes" : "**no**";
    }

    /** A value formatted, or "–" for NaN or infinity. */
    static String num(double value, String format) {
        return Double.isNaN(value) || Double.isInfinite(value)
                ? "–"
                : String.format(Locale.ROOT, format, value);
    }
}
