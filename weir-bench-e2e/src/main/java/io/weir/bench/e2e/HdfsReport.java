package io.weir.bench.e2e;

import io.weir.bench.e2e.StoreFigures.Entry;
import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.SinkKind;

import java.util.List;

import static io.weir.bench.e2e.StoreFigures.median;

/**
 * BENCHMARKS-hdfs.md's store sections: the NameNode's operations (client RPCs by method, edit-log
 * transactions) and the DataNodes' bytes written per commit, as {@link NameNodeCounts} reads them,
 * and the sink-CPU target (docs/benchmark.md, "On HDFS").
 */
final class HdfsReport implements StoreReport {
    /** The methods with a column of their own, in the order of a file's life. */
    private static final List<String> METHODS =
            List.of(
                    "create",
                    "complete",
                    "addblock",
                    "rename",
                    "delete",
                    "mkdirs",
                    "getfileinfo",
                    "getlisting");

    /** The rest, in the second table. */
    private static final List<String> OTHER_METHODS =
            List.of("getblocklocations", "fsync", "renewlease", "other", "failed");

    @Override
    public String name() {
        return "HDFS";
    }

    @Override
    public String countsPrefix() {
        return "hdfs_";
    }

    @Override
    public String fileName() {
        return "BENCHMARKS-hdfs.md";
    }

    @Override
    public String outsideTheJob() {
        return "the NameNode and the DataNode run in another JVM";
    }

    @Override
    public void counters(
            StringBuilder md, StoreFigures f, List<Workload> workloads, List<Entry> entries) {
        md.append("\n## NameNode operations, bytes and commits\n\n")
                .append("The NameNode's and the DataNode's own counters (JMX, read through the")
                .append(" NameNode's `/jmx`), during the ingestion only (table creation before it")
                .append(" and the check after it are not counted), divided by the commits of the")
                .append(
                        " run (one per completed checkpoint). \"NameNode ops\": the client RPCs the")
                .append(" NameNode answered (`RpcDetailedActivityForPort<port>`, the DataNode's")
                .append(" own calls left out), by method: `create` (a new file), `complete` (a")
                .append(" file closed), `addBlock` (a block allocated), `rename` (rename and")
                .append(" rename2), `delete`, `mkdirs`, `getFileInfo` (a stat), `getListing` (a")
                .append(" directory page); \"other\": every other method (next table). \"Edit-log")
                .append(" transactions\": namespace changes the NameNode logged. \"New files\":")
                .append(" data files the commits added (the committers' metrics). \"MB written\":")
                .append(" bytes the DataNode received (`BytesWritten`; one replica). Commit")
                .append(" latency: the sink's own committer metric for each commit (Weir: the")
                .append(" committer's commit call; Paimon: `commitDuration` of its")
                .append(" `CommitMetrics`), p50/p99 over all commits of the runs (nearest rank).")
                .append(
                        " \"Steady\": from the run's first commit to the one before its last (to the")
                .append(" last if the run made two), per commit: without the job's start, and")
                .append(" without the end of the input, where the writers close. Medians over the")
                .append(" runs.\n\n")
                .append("| schema | sink | checkpoints | commits | NameNode ops / commit |");
        for (String m : METHODS) {
            md.append(' ').append(column(m)).append(" |");
        }
        md.append(
                        " other | edit-log transactions / commit | new files / commit | MB written /"
                                + " commit | NameNode ops total | MB written total | commit p50 ms |"
                                + " commit p99 ms | steady: NameNode ops / commit | steady:"
                                + " transactions / commit | steady: MB written / commit |\n")
                .append("|---|---|");
        for (int i = 0; i < METHODS.size() + 14; i++) {
            md.append("---:|");
        }
        md.append('\n');
        for (Workload w : workloads) {
            for (Entry e : entries) {
                if (!e.sink().writesTable()) {
                    continue;
                }
                List<RunResult> runs = f.runs(e, w);
                if (runs.isEmpty()) {
                    continue;
                }
                boolean hdfs = e.remote();
                double[] latencies = StoreFigures.latencies(runs);
                TableRow row =
                        new TableRow(md)
                                .cell(w.id())
                                .cell(e.label(name()))
                                .num(median(runs, r -> StoreFigures.fig(r, "checkpoints")), "%.0f")
                                .num(median(runs, r -> StoreFigures.fig(r, "commits")), "%.0f")
                                .remote(hdfs, () -> f.medianPerCommit(runs, "ops"), "%.1f");
                for (String m : METHODS) {
                    row.remote(hdfs, () -> f.medianPerCommit(runs, "op_" + m), "%.1f");
                }
                row.remote(hdfs, () -> median(runs, r -> other(f, r)), "%.1f")
                        .remote(hdfs, () -> f.medianPerCommit(runs, "transactions"), "%.1f")
                        .num(
                                median(runs, r -> StoreFigures.perCommitOf(r, "committed_files")),
                                "%.1f")
                        .remote(
                                hdfs,
                                () -> median(runs, r -> f.perCommit(r, "bytes_written") / 1e6),
                                "%.2f")
                        .remote(hdfs, () -> median(runs, r -> f.counter(r, "ops")), "%,.0f")
                        .remote(
                                hdfs,
                                () -> median(runs, r -> f.counter(r, "bytes_written") / 1e6),
                                "%,.1f")
                        .num(StoreFigures.percentile(latencies, 0.50), "%.0f")
                        .num(StoreFigures.percentile(latencies, 0.99), "%.0f")
                        .remote(hdfs, () -> f.medianSteady(runs, "ops"), "%.1f")
                        .remote(hdfs, () -> f.medianSteady(runs, "transactions"), "%.1f")
                        .remote(
                                hdfs,
                                () -> median(runs, r -> f.steady(r, "bytes_written") / 1e6),
                                "%.2f")
                        .end();
            }
        }
        md.append("\nThe other NameNode operations per commit (reads of blocks' locations, fsyncs,")
                .append(" lease renewals, every other client method, and calls that failed, which")
                .append(" Hadoop counts under the exception's name), and the NameNode operations")
                .append(" per commit in steady state by method:\n\n")
                .append(
                        "| schema | sink | getBlockLocations | fsync | renewLease | other methods |")
                .append(" failed |");
        for (String m : METHODS) {
            md.append(" steady: ").append(column(m)).append(" |");
        }
        md.append("\n|---|---|");
        for (int i = 0; i < OTHER_METHODS.size() + METHODS.size(); i++) {
            md.append("---:|");
        }
        md.append('\n');
        for (Workload w : workloads) {
            for (Entry e : entries) {
                if (!e.sink().writesTable() || !e.remote()) {
                    continue;
                }
                List<RunResult> runs = f.runs(e, w);
                if (runs.isEmpty()) {
                    continue;
                }
                TableRow row = new TableRow(md).cell(w.id()).cell(e.label(name()));
                for (String m : OTHER_METHODS) {
                    row.num(f.medianPerCommit(runs, "op_" + m), "%.1f");
                }
                for (String m : METHODS) {
                    row.num(f.medianSteady(runs, "op_" + m), "%.1f");
                }
                row.end();
            }
        }
    }

    /** NameNode ops per commit outside {@link #METHODS}. */
    private static double other(StoreFigures f, RunResult r) {
        double other = f.perCommit(r, "ops");
        for (String m : METHODS) {
            other -= f.perCommit(r, "op_" + m);
        }
        return other;
    }

    private static String column(String method) {
        return switch (method) {
            case "addblock" -> "addBlock";
            case "getfileinfo" -> "getFileInfo";
            case "getlisting" -> "getListing";
            default -> method;
        };
    }

    @Override
    public void targets(StringBuilder md, StoreFigures f, List<Workload> workloads) {
        md.append("\n## Targets\n\n")
                .append("- Sink CPU: Weir's at most 1/5 of Paimon's (issue 24's target on S3,")
                .append(" checked here with both tables on HDFS). Issue 24 sets no target for")
                .append(" NameNode operations; they are reported above.\n\n")
                .append(
                        "| schema | Weir sink CPU µs/row | Paimon sink CPU µs/row | ratio | met |\n")
                .append("|---|---:|---:|---:|---|\n");
        for (Workload w : workloads) {
            Entry weirEntry = new Entry(SinkKind.WEIR, true);
            if (f.runs(weirEntry, w).isEmpty()) {
                continue;
            }
            double weirSink = f.sinkCpuMicrosPerRow(weirEntry, w);
            double paimonSink = f.sinkCpuMicrosPerRow(new Entry(SinkKind.PAIMON, true), w);
            double ratio = weirSink / paimonSink;
            new TableRow(md)
                    .cell(w.id())
                    .num(weirSink, "%.2f")
                    .num(paimonSink, "%.2f")
                    .num(ratio, "%.2f")
                    .cell(Double.isNaN(ratio) ? "–" : ratio <= 0.2 ? "yes" : "no")
                    .end();
        }
    }
}
