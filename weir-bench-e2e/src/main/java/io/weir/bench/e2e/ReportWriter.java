package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.SourceKind;
import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.JobSettings;
import io.weir.bench.e2e.job.Phase;
import io.weir.bench.e2e.job.SinkKind;
import io.weir.bench.e2e.job.SinkTable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** Writes BENCHMARKS.md (and its chart, BENCHMARKS.png beside it) from a suite's results. */
final class ReportWriter {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private final Path target;
    private final String commandLine;
    private final RunSetup setup;

    ReportWriter(Path target, String commandLine, RunSetup setup) {
        this.target = target;
        this.commandLine = commandLine;
        this.setup = setup;
    }

    void write(SuiteResults results) throws IOException {
        List<SinkMedians> medians = SinkMedians.of(results.ingestion());
        List<Workload> workloads = workloads(results);
        Path chart = target.resolveSibling(baseName(target) + ".png");
        ReportChart.write(medians, workloads, chart);
        StringBuilder md = new StringBuilder();
        header(md, results);
        ingestion(md, medians, results.repeat());
        md.append("\n![Throughput and sink CPU per schema](")
                .append(chart.getFileName())
                .append(")\n");
        comparison(md, medians, workloads);
        lifecycle(md, results.lifecycles());
        machine(md, results);
        sinks(md, medians);
        raw(md, results);
        Files.createDirectories(target.toAbsolutePath().getParent());
        Files.writeString(target, md.toString());
    }

    private void header(StringBuilder md, SuiteResults results) {
        md.append("# Weir end-to-end benchmark results\n\n");
        md.append("Measured by `")
                .append(commandLine)
                .append("` from ")
                .append(TIME.format(results.start()))
                .append(" to ")
                .append(TIME.format(results.end()))
                .append(" (")
                .append(Duration.between(results.start(), results.end()).toMinutes())
                .append(
                        " min). What is measured and how: BENCHMARK.md; the harness: docs/benchmark.md.")
                .append(" Every figure below comes from that run; nothing is edited by hand.\n\n");
        md.append(
                String.format(
                        Locale.ROOT,
                        "Flink local execution in one child JVM per run (`-Xmx%s`, the add-opens of"
                                + " Flink's distribution), streaming mode, parallelism %d,"
                                + " exactly-once checkpoints every %d ms (hashmap state backend),"
                                + " %s, %d buckets. Row counts: BENCHMARK.md's times %s.\n",
                        setup.heap(),
                        setup.parallelism(),
                        setup.checkpointIntervalMs(),
                        setup.source() == SourceKind.DATAGEN
                                ? "bounded source: Flink's `datagen` as BENCHMARK.md declares it"
                                        + " (tables checked by keys and value shapes,"
                                        + " docs/benchmark.md)"
                                : "bounded deterministic source (`weir-bench-gen`,"
                                        + " docs/benchmark.md)",
                        setup.buckets(),
                        results.rowsScale()));
    }

    private static void ingestion(StringBuilder md, List<SinkMedians> medians, int repeat) {
        md.append("\n## Ingestion (")
                .append(repeat == 1 ? "one run each" : "median of " + repeat + " interleaved runs")
                .append(")\n\n")
                .append(
                        "\"% of blackhole\": rows/s over the blackhole's on the same Flink at the same")
                .append(
                        " rows. \"Sink CPU\": (job CPU − blackhole job CPU at the same rows) / rows.")
                .append(" \"Each round\": rows/s over the blackhole's run of the same round, so")
                .append(" that a drift in the machine's speed between rounds is visible.")
                .append(
                        " Job CPU: user + sys of the child JVM from submission to the end of the job.\n\n");
        md.append(
                "| schema | sink | rows | runs | rows/s | % of blackhole | each round | job CPU s"
                        + " | sink CPU µs/row | GC s | peak RSS MB | table MB | verified |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (SinkMedians m : medians) {
            SinkMedians ceiling = ceilingOf(medians, m);
            boolean relative =
                    ceiling != null && ceiling != m && m.runs() > 0 && ceiling.runs() > 0;
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %s | %s | %d%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                            m.workload().id(),
                            m.sink().id(),
                            millions(m.rows()),
                            m.runs(),
                            m.failed() > 0 ? " (" + m.failed() + " failed)" : "",
                            number(m.rowsPerSecond(), "%,.0f"),
                            !m.sink().isCeiling()
                                    ? (relative ? number(100 * m.shareOf(ceiling), "%.0f %%") : "–")
                                    : "(ceiling)",
                            !m.sink().isCeiling() && relative
                                    ? roundShares(m.roundSharesOf(ceiling))
                                    : "–",
                            number(m.cpuSeconds(), "%.1f"),
                            relative ? number(m.sinkCpuMicrosPerRow(ceiling), "%,.2f") : "–",
                            number(m.gcSeconds(), "%.1f"),
                            number(m.peakRssMb(), "%,.0f"),
                            m.sink().writesTable() ? number(m.tableBytes() / 1e6, "%,.1f") : "–",
                            m.verified() == null ? "–" : m.verified() ? "yes" : "**NO**"));
        }
    }

    private static void comparison(
            StringBuilder md, List<SinkMedians> medians, List<Workload> workloads) {
        md.append("\n## Weir against the cheaper peer\n\n")
                .append(
                        "The cheaper peer is the one with less sink CPU per row on that schema. Hudi")
                .append(
                        " runs on Flink 1.17 against its own ceiling, so its share of the blackhole is")
                .append(" the comparable throughput figure. Where Weir's job took no more CPU than")
                .append(" the blackhole's (its sink's cost within the blackhole's run-to-run")
                .append(" spread), the ratio reads `Weir ≤ blackhole`.\n\n");
        md.append(
                "| schema | cheaper peer | peer sink CPU µs/row | Weir sink CPU µs/row | peer CPU ÷"
                        + " Weir CPU | peer % of blackhole | Weir % of blackhole |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (Workload w : workloads) {
            SinkMedians weir = find(medians, SinkKind.WEIR, w, -1);
            SinkMedians weirCeiling = weir == null ? null : ceilingOf(medians, weir);
            SinkMedians best = null;
            double bestCpu = Double.NaN;
            for (SinkKind peer : List.of(SinkKind.PAIMON, SinkKind.HUDI)) {
                SinkMedians p = find(medians, peer, w, -1);
                SinkMedians c = p == null ? null : ceilingOf(medians, p);
                if (c != null && p.runs() > 0 && c.runs() > 0) {
                    double cpu = p.sinkCpuMicrosPerRow(c);
                    if (best == null || cpu < bestCpu) {
                        best = p;
                        bestCpu = cpu;
                    }
                }
            }
            if (weirCeiling == null || best == null || weir.runs() == 0) {
                continue;
            }
            double weirCpu = weir.sinkCpuMicrosPerRow(weirCeiling);
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %s | %,.2f | %,.2f | %s | %.0f %% | %.0f %% |\n",
                            w.id(),
                            shortName(best.sink()),
                            bestCpu,
                            weirCpu,
                            weirCpu > 0
                                    ? String.format(Locale.ROOT, "%.1f×", bestCpu / weirCpu)
                                    : "Weir ≤ blackhole",
                            100 * best.shareOf(ceilingOf(medians, best)),
                            100 * weir.shareOf(weirCeiling)));
        }
    }

    private static void lifecycle(StringBuilder md, List<RunResult> runs) {
        if (runs.isEmpty()) {
            return;
        }
        md.append("\n## Full lifecycle (one run each)\n\n")
                .append(
                        "Ingest, then compaction of everything written (Weir: `CompactionJob --full`;")
                .append(" Paimon: `CALL sys.compact(..., compact_strategy => 'full')`; Hudi:")
                .append(" `HoodieFlinkCompactor --schedule`), then a full snapshot read: `SELECT")
                .append(
                        " COUNT(*)` and a scan of every column into a blackhole (Flink SQL, batch).")
                .append(" Wall seconds (CPU seconds of the process).\n\n");
        md.append(
                "| schema | sink | rows | ingest | compact | COUNT(*) | scan | total | MB after ingest"
                        + " | MB after compaction | verified |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (RunResult r : runs) {
            StringBuilder row = new StringBuilder();
            row.append("| ")
                    .append(r.settings().workload().id())
                    .append(" | ")
                    .append(r.settings().sink().id())
                    .append(" | ")
                    .append(millions(r.settings().rows()))
                    .append(" | ");
            double wall = 0;
            double cpu = 0;
            for (Phase phase : List.of(Phase.INGEST, Phase.COMPACT, Phase.COUNT, Phase.SCAN)) {
                PhaseFigures f = r.phases().get(phase);
                if (f == null) {
                    row.append("failed | ");
                    wall = Double.NaN;
                } else {
                    row.append(
                            String.format(
                                    Locale.ROOT, "%.1f (%.1f) | ", f.seconds(), f.cpuSeconds()));
                    wall += f.seconds();
                    cpu += f.cpuSeconds();
                }
            }
            row.append(
                    Double.isNaN(wall)
                            ? "– | "
                            : String.format(Locale.ROOT, "%.1f (%.1f) | ", wall, cpu));
            row.append(megabytes(r.phases().get(Phase.INGEST))).append(" | ");
            row.append(megabytes(r.phases().get(Phase.COMPACT))).append(" | ");
            Boolean verified = r.verified();
            row.append(verified == null ? "–" : verified ? "yes" : "**NO**").append(" |\n");
            md.append(row);
        }
    }

    static void machine(StringBuilder md, SuiteResults results) {
        MachineInfo m = MachineInfo.current();
        md.append("\n## Machine\n\n")
                .append("- `nproc`: ")
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
                .append(results.loadBefore())
                .append("; at the end: ")
                .append(results.loadAfter())
                .append("\n- `java -version`:\n\n```\n")
                .append(m.java())
                .append("\n```\n");
    }

    private void sinks(StringBuilder md, List<SinkMedians> medians) {
        md.append("\n## Sinks, versions and options\n\n")
                .append(
                        "Connector jars without their transitive dependencies, as dropped into a Flink")
                .append(
                        " distribution's `lib/`, next to Flink's own jars (docs/benchmark.md).\n\n");
        md.append("| sink | what runs | Flink | table options |\n|---|---|---|---|\n");
        Set<SinkKind> kinds = new LinkedHashSet<>();
        medians.forEach(m -> kinds.add(m.sink()));
        for (SinkKind kind : kinds) {
            sinkRow(
                    md,
                    kind,
                    new SinkTable(
                            JobSettings.builder(kind, Workload.SCHEMA1, 1, Path.of("/RUN"))
                                    .parallelism(setup.parallelism())
                                    .buckets(setup.buckets())
                                    .tableOptions(setup.tableOptions())
                                    .build()));
        }
    }

    /** A row of a report's sink table: the sink, what runs, its Flink, its table's options. */
    static void sinkRow(StringBuilder md, SinkKind kind, SinkTable table) {
        String text =
                table.options().entrySet().stream()
                        .map(e -> "`" + e.getKey() + "`=`" + e.getValue() + "`")
                        .collect(Collectors.joining(", "));
        md.append("| ")
                .append(kind.id())
                .append(" | ")
                .append(kind.product())
                .append(" | ")
                .append(kind.flinkVersion())
                .append(" | ")
                .append(text.replace("file:///RUN/", "<run dir>/").replace("/RUN/", "<run dir>/"))
                .append(" |\n");
    }

    private static void raw(StringBuilder md, SuiteResults results) {
        md.append("\n## Every run\n\nThe JSON line of each run, in the order they ran.\n\n```\n");
        for (RunResult r : results.ingestion()) {
            md.append(r.summary()).append('\n');
        }
        for (RunResult r : results.lifecycles()) {
            md.append(r.summary()).append('\n');
        }
        md.append("```\n");
    }

    /** Per-round shares as percentages, "95 / 69 / –". */
    private static String roundShares(List<Double> shares) {
        StringBuilder s = new StringBuilder();
        for (double share : shares) {
            s.append(s.isEmpty() ? "" : " / ").append(number(100 * share, "%.0f"));
        }
        return s.toString();
    }

    /** The medians of a sink on a workload (at {@code rows}, or any rows if negative). */
    static SinkMedians find(List<SinkMedians> medians, SinkKind sink, Workload w, long rows) {
        for (SinkMedians m : medians) {
            // By what the sink is: a suite runs on one Flink line (weir2 is weir there).
            if (m.sink().system() == sink.system()
                    && m.workload() == w
                    && (rows < 0 || m.rows() == rows)) {
                return m;
            }
        }
        return null;
    }

    /** The blackhole run on the same Flink, workload and rows, or null. */
    static SinkMedians ceilingOf(List<SinkMedians> medians, SinkMedians m) {
        return find(medians, m.sink().ceiling(), m.workload(), m.rows());
    }

    static String shortName(SinkKind sink) {
        return switch (sink) {
            case WEIR -> "Weir";
            case WEIR2 -> "Weir (Flink 2.3)";
            case PAIMON -> "Paimon 1.3.1";
            case PAIMON2 -> "Paimon 1.4.2 (Flink 2.3)";
            case BLACKHOLE2 -> "blackhole (Flink 2.3)";
            case HUDI -> "Hudi 0.14.0";
            case BLACKHOLE -> "blackhole";
            case SHUFFLE -> "bucket shuffle";
            case BLACKHOLE117 -> "blackhole (Flink 1.17)";
        };
    }

    private static List<Workload> workloads(SuiteResults results) {
        Set<Workload> seen = new LinkedHashSet<>();
        results.ingestion().forEach(r -> seen.add(r.settings().workload()));
        return new ArrayList<>(seen);
    }

    private static String megabytes(PhaseFigures f) {
        return f == null ? "–" : String.format(Locale.ROOT, "%,.1f", f.tableBytes() / 1e6);
    }

    private static String millions(long rows) {
        return rows % 1_000_000 == 0 && rows > 0
                ? rows / 1_000_000 + " M"
                : String.format(Locale.ROOT, "%,d", rows);
    }

    private static String number(double value, String format) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, format, value);
    }

    private static String baseName(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}
