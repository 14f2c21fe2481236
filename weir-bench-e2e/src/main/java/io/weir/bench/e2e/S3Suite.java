package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.SinkKind;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code weir bench --all --warehouse s3}: Weir and Paimon with their tables on an S3 server, next
 * to the blackhole (and, with {@code --also-local}, the same sinks on local disk), interleaved per
 * workload and round as {@link Suite} does; then BENCHMARKS-s3.md: throughput and sink CPU, the
 * requests and bytes per commit that went through the counting proxy, commit latency p50/p99, and
 * the targets (docs/benchmark.md, "On S3").
 */
final class S3Suite {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    /** One sink on one storage. */
    record Entry(SinkKind sink, boolean onS3) {
        String label() {
            return sink.id() + (sink.writesTable() ? (onS3 ? " (S3)" : " (local disk)") : "");
        }
    }

    private final List<Entry> entries;
    private final List<Workload> workloads;
    private final double rowsScale;
    private final int repeat;
    private final boolean verify;

    S3Suite(
            List<SinkKind> sinks,
            List<Workload> workloads,
            double rowsScale,
            int repeat,
            boolean alsoLocal,
            boolean verify) {
        if (repeat < 1 || !(rowsScale > 0)) {
            throw new IllegalArgumentException("--repeat and --rows-scale must be positive");
        }
        List<Entry> list = new ArrayList<>();
        list.add(new Entry(SinkKind.BLACKHOLE, false));
        for (SinkKind sink : sinks) {
            if (sink == SinkKind.WEIR || sink == SinkKind.PAIMON) {
                list.add(new Entry(sink, true));
            } else if (sink != SinkKind.BLACKHOLE) {
                throw new IllegalArgumentException(
                        "--all --warehouse runs weir, paimon and the blackhole, not " + sink.id());
            }
        }
        if (alsoLocal) {
            for (SinkKind sink : sinks) {
                if (sink == SinkKind.WEIR || sink == SinkKind.PAIMON) {
                    list.add(new Entry(sink, false));
                }
            }
        }
        this.entries = List.copyOf(list);
        this.workloads = List.copyOf(workloads);
        this.rowsScale = rowsScale;
        this.repeat = repeat;
        this.verify = verify;
    }

    int run(Runs runs, PrintStream out, Path report, String commandLine, RunSetup setup)
            throws IOException, InterruptedException {
        Instant start = Instant.now();
        String loadBefore = MachineInfo.loadAverage();
        Map<Entry, List<RunResult>> results = new LinkedHashMap<>();
        List<RunResult> all = new ArrayList<>();
        for (int round = 0; round < repeat; round++) {
            for (Workload workload : workloads) {
                for (Entry e : entries) {
                    RunResult r =
                            runs.run(
                                    e.sink(),
                                    workload,
                                    Runs.defaultRows(e.sink(), workload, rowsScale),
                                    Runs.phases(e.sink(), false, verify),
                                    e.onS3());
                    out.println(r.summary());
                    all.add(r);
                    results.computeIfAbsent(e, k -> new ArrayList<>()).add(r);
                }
            }
        }
        String md =
                report(
                        results,
                        all,
                        commandLine,
                        setup,
                        runs.s3().describe(),
                        start,
                        Instant.now(),
                        loadBefore,
                        MachineInfo.loadAverage());
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, md);
        boolean good = all.stream().allMatch(r -> r.ok() && !Boolean.FALSE.equals(r.verified()));
        return good ? 0 : 1;
    }

    /** Medians of one entry on one workload. */
    private static double median(List<RunResult> runs, ToDoubleFunction<RunResult> f) {
        double[] v =
                runs.stream()
                        .filter(RunResult::ok)
                        .mapToDouble(f)
                        .filter(d -> !Double.isNaN(d))
                        .sorted()
                        .toArray();
        return SinkMedians.median(v);
    }

    private static double fig(RunResult r, String key) {
        return r.ingest().figure(key);
    }

    /** Per commit between the first and the last commit of the run (steady state). */
    private static double steady(RunResult r, String key) {
        double commits = fig(r, "steady_commits");
        return commits > 0 ? fig(r, "s3_steady_" + key) / commits : Double.NaN;
    }

    private static double perCommit(RunResult r, String key) {
        double commits = fig(r, "commits");
        return commits > 0 ? fig(r, key) / commits : Double.NaN;
    }

    String report(
            Map<Entry, List<RunResult>> results,
            List<RunResult> all,
            String commandLine,
            RunSetup setup,
            String store,
            Instant start,
            Instant end,
            String loadBefore,
            String loadAfter) {
        StringBuilder md = new StringBuilder("# Weir end-to-end benchmark on S3\n\n");
        md.append("Measured by `")
                .append(commandLine)
                .append("` from ")
                .append(TIME.format(start))
                .append(" to ")
                .append(TIME.format(end))
                .append(" (")
                .append(Duration.between(start, end).toMinutes())
                .append(" min). What is measured and how: docs/benchmark.md, \"On S3\".")
                .append(" Every figure below comes from that run; nothing is edited by hand.\n\n");
        md.append(
                String.format(
                        Locale.ROOT,
                        "Storage: %s. Flink 1.20.3 local execution in one child JVM per run"
                                + " (`-Xmx%s`), streaming, parallelism %d, exactly-once"
                                + " checkpoints every %d ms, %d buckets, `write-only`; bounded"
                                + " deterministic source (`weir-bench-gen`). Row counts:"
                                + " BENCHMARK.md's times %s. %s.\n",
                        store,
                        setup.heap(),
                        setup.parallelism(),
                        setup.checkpointIntervalMs(),
                        setup.buckets(),
                        rowsScale,
                        repeat == 1
                                ? "One run each"
                                : "Medians of " + repeat + " interleaved runs"));

        md.append("\n## Ingestion\n\n")
                .append("\"Sink CPU\": (job CPU − blackhole job CPU at the same rows) / rows.")
                .append(" Job CPU: user + sys of the child JVM from submission to the end of the")
                .append(" job (the S3 server and the proxy run in other processes).\n\n")
                .append(
                        "| schema | sink | rows | runs | rows/s | % of blackhole | job CPU s | sink"
                                + " CPU µs/row | table MB | verified |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Workload w : workloads) {
            List<RunResult> ceiling =
                    results.get(new Entry(SinkKind.BLACKHOLE, false)).stream()
                            .filter(r -> r.settings().workload() == w)
                            .toList();
            double ceilingRate = median(ceiling, RunResult::rowsPerSecond);
            double ceilingCpu = median(ceiling, r -> r.ingest().cpuSeconds());
            for (Entry e : entries) {
                List<RunResult> runs = runsOf(results, e, w);
                if (runs.isEmpty()) {
                    continue;
                }
                long rows = runs.get(0).settings().rows();
                double rate = median(runs, RunResult::rowsPerSecond);
                double cpu = median(runs, r -> r.ingest().cpuSeconds());
                long ok = runs.stream().filter(RunResult::ok).count();
                md.append(
                        String.format(
                                Locale.ROOT,
                                "| %s | %s | %,d | %d%s | %s | %s | %s | %s | %s | %s |\n",
                                w.id(),
                                e.label(),
                                rows,
                                ok,
                                ok < runs.size() ? " (" + (runs.size() - ok) + " failed)" : "",
                                num(rate, "%,.0f"),
                                e.sink().isCeiling()
                                        ? "100 %"
                                        : num(100 * rate / ceilingRate, "%.0f %%"),
                                num(cpu, "%.1f"),
                                e.sink().isCeiling()
                                        ? "–"
                                        : num((cpu - ceilingCpu) / rows * 1e6, "%.2f"),
                                e.sink().writesTable()
                                        ? num(
                                                median(runs, r -> r.ingest().tableBytes() / 1e6),
                                                "%,.1f")
                                        : "–",
                                verified(runs)));
            }
        }

        md.append("\n## Requests, bytes and commits\n\n")
                .append("Through the counting proxy between the sink and the S3 server, during the")
                .append(" ingestion only (table creation before it and the check after it are not")
                .append(" counted), divided by the commits of the run (one per completed")
                .append(" checkpoint). \"Data\": requests to keys under `bucket-<n>/` (data files:")
                .append(
                        " single PUTs, multipart uploads, reads); \"metadata\": every other request")
                .append(" (commit files, snapshots, manifests, schemas, hints, listings). \"New")
                .append(" files\": data objects created (single PUTs and completed multipart")
                .append(
                        " uploads). Sent: bytes from the sink (request heads and bodies); received:")
                .append(
                        " bytes from the server. Commit latency: the sink's own committer metric for")
                .append(" each commit (Weir: the committer's commit call; Paimon: `commitDuration`")
                .append(" of its `CommitMetrics`), p50/p99 over all commits of the runs")
                .append(" (nearest rank). Medians over the runs.\n\n")
                .append(
                        "| schema | sink | checkpoints | commits | requests / commit | GET | HEAD |"
                                + " PUT | POST | DELETE | data requests | new files | metadata"
                                + " requests | MB sent / commit | MB received / commit | requests"
                                + " total | MB sent total | commit p50 ms | commit p99 ms | steady:"
                                + " requests / commit | steady: new files / commit | steady:"
                                + " metadata requests / commit |\n")
                .append(
                        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Workload w : workloads) {
            for (Entry e : entries) {
                if (!e.sink().writesTable()) {
                    continue;
                }
                List<RunResult> runs = runsOf(results, e, w);
                if (runs.isEmpty()) {
                    continue;
                }
                double[] latencies = latencies(runs);
                boolean s3 = e.onS3();
                md.append(
                        String.format(
                                Locale.ROOT,
                                "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
                                        + " %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                                w.id(),
                                e.label(),
                                num(median(runs, r -> fig(r, "checkpoints")), "%.0f"),
                                num(median(runs, r -> fig(r, "commits")), "%.0f"),
                                s3
                                        ? num(
                                                median(runs, r -> perCommit(r, "s3_requests")),
                                                "%.1f")
                                        : "–",
                                s3 ? num(median(runs, r -> perCommit(r, "s3_get")), "%.1f") : "–",
                                s3 ? num(median(runs, r -> perCommit(r, "s3_head")), "%.1f") : "–",
                                s3 ? num(median(runs, r -> perCommit(r, "s3_put")), "%.1f") : "–",
                                s3 ? num(median(runs, r -> perCommit(r, "s3_post")), "%.1f") : "–",
                                s3
                                        ? num(median(runs, r -> perCommit(r, "s3_delete")), "%.1f")
                                        : "–",
                                s3
                                        ? num(
                                                median(runs, r -> perCommit(r, "s3_data_requests")),
                                                "%.1f")
                                        : "–",
                                s3
                                        ? num(
                                                median(runs, r -> perCommit(r, "s3_data_files")),
                                                "%.1f")
                                        : num(
                                                median(runs, r -> perCommit(r, "committed_files")),
                                                "%.1f"),
                                s3
                                        ? num(
                                                median(runs, r -> perCommit(r, "s3_meta_requests")),
                                                "%.1f")
                                        : "–",
                                s3
                                        ? num(
                                                median(
                                                        runs,
                                                        r -> perCommit(r, "s3_bytes_sent") / 1e6),
                                                "%.2f")
                                        : "–",
                                s3
                                        ? num(
                                                median(
                                                        runs,
                                                        r ->
                                                                perCommit(r, "s3_bytes_received")
                                                                        / 1e6),
                                                "%.3f")
                                        : "–",
                                s3 ? num(median(runs, r -> fig(r, "s3_requests")), "%,.0f") : "–",
                                s3
                                        ? num(
                                                median(runs, r -> fig(r, "s3_bytes_sent") / 1e6),
                                                "%,.1f")
                                        : "–",
                                num(percentile(latencies, 0.50), "%.0f"),
                                num(percentile(latencies, 0.99), "%.0f"),
                                s3 ? num(median(runs, r -> steady(r, "requests")), "%.1f") : "–",
                                s3 ? num(median(runs, r -> steady(r, "data_files")), "%.1f") : "–",
                                s3
                                        ? num(median(runs, r -> steady(r, "meta_requests")), "%.1f")
                                        : "–"));
            }
        }
        md.append("\nMetadata requests per commit, by method:\n\n")
                .append("| schema | sink | GET | HEAD | PUT | POST | DELETE | other |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Workload w : workloads) {
            for (Entry e : entries) {
                if (!e.sink().writesTable() || !e.onS3()) {
                    continue;
                }
                List<RunResult> runs = runsOf(results, e, w);
                if (runs.isEmpty()) {
                    continue;
                }
                md.append("| ").append(w.id()).append(" | ").append(e.label());
                for (String m : List.of("get", "head", "put", "post", "delete", "other")) {
                    md.append(" | ")
                            .append(num(median(runs, r -> perCommit(r, "s3_meta_" + m)), "%.1f"));
                }
                md.append(" |\n");
            }
        }

        targets(md, results);

        MachineInfo m = MachineInfo.current();
        md.append("\n## Machine\n\n- `nproc`: ")
                .append(m.processors())
                .append("\n- CPU: ")
                .append(m.cpuModel())
                .append("\n- memory: ")
                .append(m.memory())
                .append("\n- OS: ")
                .append(m.os())
                .append(" (")
                .append(m.kernel())
                .append(")\n- load average (1 / 5 / 15 min) at the start: ")
                .append(loadBefore)
                .append("; at the end: ")
                .append(loadAfter)
                .append("\n- `java -version`:\n\n```\n")
                .append(m.java())
                .append("\n```\n");
        md.append("\n## Every run\n\nThe JSON line of each run, in the order they ran.\n\n```\n");
        all.forEach(r -> md.append(r.summary()).append('\n'));
        md.append("```\n");
        return md.toString();
    }

    private void targets(StringBuilder md, Map<Entry, List<RunResult>> results) {
        md.append("\n## Targets\n\n")
                .append("- Sink CPU: Weir's at most 1/5 of Paimon's, both on S3.\n")
                .append("- Commit cost: at most 3 requests plus one per new file, in steady state")
                .append(" (the requests between the run's first and last commit, per commit; the")
                .append(" job's start, which loads the table, is before the first). Checked as")
                .append(" requests per commit ≤ 3 + new data files per commit, i.e. every data")
                .append(" file written in one request and at most 3 other requests per commit;")
                .append(" and, looser, metadata requests per commit ≤ 3 + new files per")
                .append(" commit.\n\n")
                .append(
                        "| schema | Weir sink CPU µs/row | Paimon sink CPU µs/row | ratio |"
                                + " met | Weir requests / commit | 3 + new files | met |"
                                + " Weir metadata requests / commit | met (looser) |\n")
                .append("|---|---:|---:|---:|---|---:|---:|---|---:|---|\n");
        for (Workload w : workloads) {
            List<RunResult> blackhole = runsOf(results, new Entry(SinkKind.BLACKHOLE, false), w);
            List<RunResult> weir = runsOf(results, new Entry(SinkKind.WEIR, true), w);
            List<RunResult> paimon = runsOf(results, new Entry(SinkKind.PAIMON, true), w);
            if (weir.isEmpty() || blackhole.isEmpty()) {
                continue;
            }
            long rows = weir.get(0).settings().rows();
            double ceilingCpu = median(blackhole, r -> r.ingest().cpuSeconds());
            double weirSink =
                    (median(weir, r -> r.ingest().cpuSeconds()) - ceilingCpu) / rows * 1e6;
            double paimonSink =
                    paimon.isEmpty()
                            ? Double.NaN
                            : (median(paimon, r -> r.ingest().cpuSeconds()) - ceilingCpu)
                                    / rows
                                    * 1e6;
            double ratio = weirSink / paimonSink;
            double requests = median(weir, r -> steady(r, "requests"));
            double files = median(weir, r -> steady(r, "data_files"));
            double meta = median(weir, r -> steady(r, "meta_requests"));
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                            w.id(),
                            num(weirSink, "%.2f"),
                            num(paimonSink, "%.2f"),
                            num(ratio, "%.2f"),
                            Double.isNaN(ratio) ? "–" : ratio <= 0.2 ? "yes" : "no",
                            num(requests, "%.1f"),
                            num(3 + files, "%.1f"),
                            Double.isNaN(requests) ? "–" : requests <= 3 + files ? "yes" : "no",
                            num(meta, "%.1f"),
                            Double.isNaN(meta) ? "–" : meta <= 3 + files ? "yes" : "no"));
        }
    }

    private static List<RunResult> runsOf(
            Map<Entry, List<RunResult>> results, Entry e, Workload w) {
        return results.getOrDefault(e, List.of()).stream()
                .filter(r -> r.settings().workload() == w)
                .toList();
    }

    /** Every commit's duration of the runs, sorted. */
    private static double[] latencies(List<RunResult> runs) {
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

    private static String verified(List<RunResult> runs) {
        Boolean verified = null;
        for (RunResult r : runs) {
            Boolean v = r.verified();
            if (v != null) {
                verified = (verified == null || verified) && v;
            }
        }
        return verified == null ? "–" : verified ? "yes" : "**no**";
    }

    private static String num(double value, String format) {
        return Double.isNaN(value) || Double.isInfinite(value)
                ? "–"
                : String.format(Locale.ROOT, format, value);
    }
}
