package io.weir.bench.e2e;

import io.weir.bench.e2e.StoreFigures.Entry;
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

import static io.weir.bench.e2e.StoreFigures.median;
import static io.weir.bench.e2e.StoreFigures.num;

/**
 * {@code weir bench --all --warehouse s3|hdfs}: Weir and Paimon with their tables on the store (an
 * S3 server or HDFS), next to the blackhole (and, with {@code --also-local}, the same sinks on
 * local disk), interleaved per workload and round as {@link Suite} does; then BENCHMARKS-s3.md or
 * BENCHMARKS-hdfs.md: throughput and sink CPU, what the store counted per commit ({@link
 * StoreReport}: the proxy's requests and bytes on S3, the NameNode's operations and the DataNodes'
 * bytes on HDFS), commit latency p50/p99, and the targets (docs/benchmark.md, "On S3", "On HDFS").
 */
final class StoreSuite {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private final List<Entry> entries;
    private final List<Workload> workloads;
    private final double rowsScale;
    private final int repeat;
    private final boolean verify;

    StoreSuite(
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

    List<Entry> entries() {
        return entries;
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
                                    e.remote());
                    out.println(r.summary());
                    all.add(r);
                    results.computeIfAbsent(e, k -> new ArrayList<>()).add(r);
                }
            }
        }
        String md =
                report(
                        StoreReport.of(runs.store().name()),
                        results,
                        all,
                        commandLine,
                        setup,
                        runs.store().describe(),
                        start,
                        Instant.now(),
                        loadBefore,
                        MachineInfo.loadAverage());
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, md);
        boolean good = all.stream().allMatch(r -> r.ok() && !Boolean.FALSE.equals(r.verified()));
        return good ? 0 : 1;
    }

    String report(
            StoreReport store,
            Map<Entry, List<RunResult>> results,
            List<RunResult> all,
            String commandLine,
            RunSetup setup,
            String storeDescription,
            Instant start,
            Instant end,
            String loadBefore,
            String loadAfter) {
        StoreFigures figures = new StoreFigures(results, store.countsPrefix());
        String section = "\"On " + store.name() + "\"";
        StringBuilder md =
                new StringBuilder("# Weir end-to-end benchmark on ")
                        .append(store.name())
                        .append("\n\n");
        md.append("Measured by `")
                .append(commandLine)
                .append("` from ")
                .append(TIME.format(start))
                .append(" to ")
                .append(TIME.format(end))
                .append(" (")
                .append(Duration.between(start, end).toMinutes())
                .append(" min). What is measured and how: docs/benchmark.md, ")
                .append(section)
                .append(". Every figure below comes from that run; nothing is edited by hand.\n\n");
        md.append(
                String.format(
                        Locale.ROOT,
                        "Storage: %s. Flink 1.20.3 local execution in one child JVM per run"
                                + " (`-Xmx%s`), streaming, parallelism %d, exactly-once"
                                + " checkpoints every %d ms, %d buckets, `write-only`; bounded"
                                + " deterministic source (`weir-bench-gen`). Row counts:"
                                + " BENCHMARK.md's times %s. %s.\n",
                        storeDescription,
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
                .append(" job (")
                .append(store.outsideTheJob())
                .append(").\n\n")
                .append(
                        "| schema | sink | rows | runs | rows/s | % of blackhole | job CPU s | sink"
                                + " CPU µs/row | table MB | verified |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Workload w : workloads) {
            double ceilingRate =
                    median(
                            figures.runs(new Entry(SinkKind.BLACKHOLE, false), w),
                            RunResult::rowsPerSecond);
            for (Entry e : entries) {
                List<RunResult> runs = figures.runs(e, w);
                if (runs.isEmpty()) {
                    continue;
                }
                long rows = runs.get(0).settings().rows();
                double rate = median(runs, RunResult::rowsPerSecond);
                double cpu = median(runs, r -> r.ingest().cpuSeconds());
                long ok = runs.stream().filter(RunResult::ok).count();
                // On HDFS the table's bytes are not on local disk: the DataNodes' bytes written
                // are in the next section.
                boolean size =
                        e.sink().writesTable() && !(e.remote() && store.name().equals("HDFS"));
                md.append(
                        String.format(
                                Locale.ROOT,
                                "| %s | %s | %,d | %d%s | %s | %s | %s | %s | %s | %s |\n",
                                w.id(),
                                e.label(store.name()),
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
                                        : num(figures.sinkCpuMicrosPerRow(e, w), "%.2f"),
                                size
                                        ? num(
                                                median(runs, r -> r.ingest().tableBytes() / 1e6),
                                                "%,.1f")
                                        : "–",
                                StoreFigures.verified(runs)));
            }
        }

        store.counters(md, figures, workloads, entries);
        store.targets(md, figures, workloads);

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
}
