package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.CompactionHistory;
import io.weir.bench.e2e.job.JobSettings;
import io.weir.bench.e2e.job.SinkKind;
import io.weir.bench.e2e.job.SinkTable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Writes BENCHMARKS-compaction.md (or -long.md) and its chart from a {@link CompactionSuite}'s
 * runs: per sink and schema the medians of throughput, CPU, amplification, files, memory and
 * compaction latency; the fan-out runs' memory; every run's JSON line.
 */
final class CompactionReport {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    /** What a compaction suite measured. */
    record Results(
            Instant start,
            Instant end,
            String loadBefore,
            String loadAfter,
            String commandLine,
            RunSetup setup,
            int repeat,
            boolean longRun,
            List<RunResult> ingestion,
            List<RunResult> fanOut) {}

    private CompactionReport() {}

    static void write(Path target, Results results) throws IOException {
        Path chart = target.resolveSibling(baseName(target) + ".png");
        boolean charted = TimelineChart.write(results, chart);
        StringBuilder md = new StringBuilder();
        header(md, results);
        ingestion(md, results);
        if (charted) {
            md.append("\n![Throughput, sorted runs and compaction backlog over time")
                    .append(results.fanOut().isEmpty() ? "" : "; memory against fan-out")
                    .append("](")
                    .append(chart.getFileName())
                    .append(")\n");
        }
        fanOut(md, results);
        ReportWriter.machine(
                md,
                new SuiteResults(
                        results.start(),
                        results.end(),
                        results.loadBefore(),
                        results.loadAfter(),
                        1,
                        results.repeat(),
                        List.of(),
                        List.of()));
        sinks(md, results);
        md.append("\n## Every run\n\nThe JSON line of each run, in the order they ran.\n\n```\n");
        for (RunResult r : results.ingestion()) {
            md.append(r.summary()).append('\n');
        }
        for (RunResult r : results.fanOut()) {
            md.append(r.summary()).append('\n');
        }
        md.append("```\n");
        Files.createDirectories(target.toAbsolutePath().getParent());
        Files.writeString(target, md.toString());
    }

    private static void header(StringBuilder md, Results results) {
        RunSetup setup = results.setup();
        md.append("# Weir end-to-end benchmark with compaction on")
                .append(results.longRun() ? ": the long run" : "")
                .append("\n\nMeasured by `")
                .append(results.commandLine())
                .append("` from ")
                .append(TIME.format(results.start()))
                .append(" to ")
                .append(TIME.format(results.end()))
                .append(" (")
                .append(Duration.between(results.start(), results.end()).toMinutes())
                .append(" min). What is measured and how: docs/benchmark.md, \"Compaction on\".")
                .append(" Every figure below comes from that run; nothing is edited by hand.\n\n")
                .append(
                        String.format(
                                Locale.ROOT,
                                "Each sink with its default in-writer compaction (Weir and Paimon"
                                        + " `write-only`=false; Hudi async compaction), Flink local"
                                        + " execution in one child JVM per run (`-Xmx%s`),"
                                        + " parallelism %d, exactly-once checkpoints every %d ms,"
                                        + " %d buckets (fan-out runs: as listed).\n",
                                setup.heap(),
                                setup.parallelism(),
                                setup.checkpointIntervalMs(),
                                setup.buckets()));
    }

    private static void ingestion(StringBuilder md, Results results) {
        md.append("\n## Ingestion with compaction (")
                .append(
                        results.repeat() == 1
                                ? "one run each"
                                : "median of " + results.repeat() + " interleaved runs")
                .append(")\n\n")
                .append(
                        "CPU: (job CPU − blackhole job CPU at the same rows) / rows: the sink and"
                                + " its in-job compaction. Write amplification: bytes of the files"
                                + " compaction wrote / bytes of the files the ingest commits wrote."
                                + " Sorted runs: the most any file group held right after an ingest"
                                + " commit (max over the run / median over its commits)."
                                + " Compaction latency: from an ingest commit to the commit that"
                                + " rewrote or moved the last of its files (median / max);"
                                + " \"waiting\": ingest commits with files still uncompacted at the"
                                + " end. Files / MB: everything under the table's directory at the"
                                + " end (data and metadata, superseded files included)."
                                + " Checkpoint ms: Flink's lastCheckpointDuration of each completed"
                                + " checkpoint.\n\n");
        md.append(
                "| schema | sink | rows | runs | rows/s | % of blackhole | CPU µs/row | write amp |"
                        + " sorted runs max / median | compaction latency s | waiting | files /"
                        + " MB on disk | live files | checkpoint ms p50 / max | peak RSS MB |"
                        + " heap after GC MB | verified |\n");
        md.append(
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        List<SinkMedians> medians = SinkMedians.of(results.ingestion());
        Map<String, List<RunResult>> groups = group(results.ingestion());
        for (SinkMedians m : medians) {
            List<RunResult> ok =
                    groups.get(key(m.sink(), m.workload(), m.rows())).stream()
                            .filter(RunResult::ok)
                            .toList();
            SinkMedians ceiling = ReportWriter.ceilingOf(medians, m);
            boolean relative =
                    ceiling != null && ceiling != m && m.runs() > 0 && ceiling.runs() > 0;
            boolean table = m.sink().writesTable();
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %s | %,d | %d%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                            m.workload().id(),
                            m.sink().id(),
                            m.rows(),
                            m.runs(),
                            m.failed() > 0 ? " (" + m.failed() + " failed)" : "",
                            number(m.rowsPerSecond(), "%,.0f"),
                            m.sink().isCeiling()
                                    ? "(ceiling)"
                                    : relative ? number(100 * m.shareOf(ceiling), "%.0f %%") : "–",
                            relative ? number(m.sinkCpuMicrosPerRow(ceiling), "%,.2f") : "–",
                            table ? number(median(ok, "write_amp"), "%.2f") : "–",
                            table
                                    ? number(median(ok, "runs_max"), "%.0f")
                                            + " / "
                                            + number(median(ok, "runs_median"), "%.0f")
                                    : "–",
                            table
                                    ? number(median(ok, "compaction_latency_p50_s"), "%.1f")
                                            + " / "
                                            + number(median(ok, "compaction_latency_max_s"), "%.1f")
                                    : "–",
                            table ? number(median(ok, "uncompacted_commits"), "%.0f") : "–",
                            table
                                    ? number(median(ok, "table_files"), "%,.0f")
                                            + " / "
                                            + number(m.tableBytes() / 1e6, "%,.1f")
                                    : "–",
                            table ? number(median(ok, "live_files"), "%,.0f") : "–",
                            table
                                    ? number(median(ok, "checkpoint_p50_ms"), "%,.0f")
                                            + " / "
                                            + number(median(ok, "checkpoint_max_ms"), "%,.0f")
                                    : "–",
                            number(m.peakRssMb(), "%,.0f"),
                            number(median(ok, "heap_after_gc_max_mb"), "%,.0f"),
                            m.verified() == null ? "–" : m.verified() ? "yes" : "**NO**"));
        }
    }

    private static void fanOut(StringBuilder md, Results results) {
        if (results.fanOut().isEmpty()) {
            return;
        }
        md.append("\n## Memory against fan-out (one run each)\n\n")
                .append(
                        "The same ingestion (schema1) into tables of 1 to 10,000 file groups"
                                + " (buckets of an unpartitioned table, or partitions × buckets as"
                                + " listed), compaction on. Peak RSS:"
                                + " the child's VmHWM. Heap after GC: the most heap in use right"
                                + " after any collection during the ingestion (what the job kept"
                                + " alive); peak heap: the heap pools' peaks (garbage included)."
                                + " A run still ingesting at its time limit (--time-limit) was"
                                + " stopped there: its rows are those of the files its commits"
                                + " added by then (after the sink's own merging in its buffers),"
                                + " and its table is not checked.\n\n");
        md.append(
                "| file groups | sink | rows | rows/s | peak RSS MB | heap after GC MB | peak heap"
                        + " MB | files on disk | write amp | sorted runs max | verified |\n");
        md.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (RunResult r : results.fanOut()) {
            PhaseFigures f = r.ingest();
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                            FanOut.of(r.settings()).label(),
                            r.settings().sink().id(),
                            rows(r),
                            r.ok()
                                    ? r.stopped() ? "–" : number(r.rowsPerSecond(), "%,.0f")
                                    : "failed",
                            f == null ? "–" : number(f.peakRssMb(), "%,.0f"),
                            f == null ? "–" : number(f.figure("heap_after_gc_max_mb"), "%,.0f"),
                            f == null ? "–" : number(f.figure("peak_heap_mb"), "%,.0f"),
                            f == null ? "–" : number(f.figure("table_files"), "%,.0f"),
                            f == null ? "–" : number(f.figure("write_amp"), "%.2f"),
                            f == null ? "–" : number(f.figure("runs_max"), "%.0f"),
                            r.verified() == null ? "–" : r.verified() ? "yes" : "**NO**"));
        }
    }

    /** A fan-out run's rows: the source's, or what a run stopped at its limit had committed. */
    private static String rows(RunResult r) {
        if (!r.stopped()) {
            return String.format(Locale.ROOT, "%,d", r.settings().rows());
        }
        PhaseFigures f = r.ingest();
        return String.format(
                Locale.ROOT,
                "%s in %.0f s (stopped)",
                number(f.figure("ingested_rows"), "%,.0f"),
                f.seconds());
    }

    private static void sinks(StringBuilder md, Results results) {
        md.append("\n## Sinks and table options\n\n| sink | what runs | Flink | table options |\n")
                .append("|---|---|---|---|\n");
        Set<SinkKind> kinds = new LinkedHashSet<>();
        results.ingestion().forEach(r -> kinds.add(r.settings().sink()));
        for (SinkKind kind : kinds) {
            ReportWriter.sinkRow(
                    md,
                    kind,
                    new SinkTable(
                            JobSettings.builder(kind, Workload.SCHEMA1, 1, Path.of("/RUN"))
                                    .parallelism(results.setup().parallelism())
                                    .buckets(results.setup().buckets())
                                    .compaction(true)
                                    .tableOptions(results.setup().tableOptions())
                                    .build()));
        }
    }

    /** The median of a figure of the runs' ingestion lines (NaN where absent). */
    static double median(List<RunResult> runs, String figure) {
        ToDoubleFunction<RunResult> f = r -> r.ingest().figure(figure);
        double[] values =
                runs.stream().mapToDouble(f).filter(v -> !Double.isNaN(v)).sorted().toArray();
        return SinkMedians.median(values);
    }

    /** The timeline of a run's table (empty if none was read). */
    static List<CompactionHistory.Point> timeline(RunResult r) {
        if (!r.ok() || r.ingest().json() == null || !r.ingest().json().has("timeline")) {
            return List.of();
        }
        return CompactionHistory.parseTimeline(r.ingest().json().get("timeline").asText());
    }

    private static Map<String, List<RunResult>> group(List<RunResult> runs) {
        Map<String, List<RunResult>> groups = new LinkedHashMap<>();
        for (RunResult r : runs) {
            groups.computeIfAbsent(
                            key(r.settings().sink(), r.settings().workload(), r.settings().rows()),
                            k -> new ArrayList<>())
                    .add(r);
        }
        return groups;
    }

    private static String key(SinkKind sink, Workload workload, long rows) {
        return sink + "/" + workload + "/" + rows;
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
