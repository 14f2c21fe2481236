package io.weir.bench.e2e;

import io.weir.bench.e2e.StoreFigures.Entry;
import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.SinkKind;

import java.util.List;

import static io.weir.bench.e2e.StoreFigures.median;

/**
 * BENCHMARKS-s3.md's store sections: the requests and bytes that went through the counting proxy
 * per commit, and the targets of issue 24 (docs/benchmark.md, "On S3").
 */
final class S3Report implements StoreReport {
    @Override
    public String name() {
        return "S3";
    }

    @Override
    public String countsPrefix() {
        return "s3_";
    }

    @Override
    public String fileName() {
        return "BENCHMARKS-s3.md";
    }

    @Override
    public String outsideTheJob() {
        return "the S3 server and the proxy run in other processes";
    }

    @Override
    public void counters(
            StringBuilder md, StoreFigures f, List<Workload> workloads, List<Entry> entries) {
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
                List<RunResult> runs = f.runs(e, w);
                if (runs.isEmpty()) {
                    continue;
                }
                double[] latencies = StoreFigures.latencies(runs);
                boolean s3 = e.remote();
                new TableRow(md)
                        .cell(w.id())
                        .cell(e.label(name()))
                        .num(median(runs, r -> StoreFigures.fig(r, "checkpoints")), "%.0f")
                        .num(median(runs, r -> StoreFigures.fig(r, "commits")), "%.0f")
                        .remote(s3, () -> f.medianPerCommit(runs, "requests"), "%.1f")
                        .remote(s3, () -> f.medianPerCommit(runs, "get"), "%.1f")
                        .remote(s3, () -> f.medianPerCommit(runs, "head"), "%.1f")
                        .remote(s3, () -> f.medianPerCommit(runs, "put"), "%.1f")
                        .remote(s3, () -> f.medianPerCommit(runs, "post"), "%.1f")
                        .remote(s3, () -> f.medianPerCommit(runs, "delete"), "%.1f")
                        .remote(s3, () -> f.medianPerCommit(runs, "data_requests"), "%.1f")
                        .num(
                                s3
                                        ? f.medianPerCommit(runs, "data_files")
                                        : median(
                                                runs,
                                                r ->
                                                        StoreFigures.perCommitOf(
                                                                r, "committed_files")),
                                "%.1f")
                        .remote(s3, () -> f.medianPerCommit(runs, "meta_requests"), "%.1f")
                        .remote(
                                s3,
                                () -> median(runs, r -> f.perCommit(r, "bytes_sent") / 1e6),
                                "%.2f")
                        .remote(
                                s3,
                                () -> median(runs, r -> f.perCommit(r, "bytes_received") / 1e6),
                                "%.3f")
                        .remote(s3, () -> median(runs, r -> f.counter(r, "requests")), "%,.0f")
                        .remote(
                                s3,
                                () -> median(runs, r -> f.counter(r, "bytes_sent") / 1e6),
                                "%,.1f")
                        .num(StoreFigures.percentile(latencies, 0.50), "%.0f")
                        .num(StoreFigures.percentile(latencies, 0.99), "%.0f")
                        .remote(s3, () -> f.medianSteady(runs, "requests"), "%.1f")
                        .remote(s3, () -> f.medianSteady(runs, "data_files"), "%.1f")
                        .remote(s3, () -> f.medianSteady(runs, "meta_requests"), "%.1f")
                        .end();
            }
        }
        md.append("\nMetadata requests per commit, by method:\n\n")
                .append("| schema | sink | GET | HEAD | PUT | POST | DELETE | other |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|\n");
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
                for (String m : List.of("get", "head", "put", "post", "delete", "other")) {
                    row.num(f.medianPerCommit(runs, "meta_" + m), "%.1f");
                }
                row.end();
            }
        }
    }

    @Override
    public void targets(StringBuilder md, StoreFigures f, List<Workload> workloads) {
        md.append("\n## Targets\n\n")
                .append("- Sink CPU: Weir's at most 1/5 of Paimon's, both on S3.\n")
                .append("- Commit cost: at most 3 requests plus one per new file, in steady state")
                .append(" (the requests from the run's first commit to the one before its last,")
                .append(" per commit: without the end of the input, where the writers close; the")
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
            Entry weirEntry = new Entry(SinkKind.WEIR, true);
            List<RunResult> weir = f.runs(weirEntry, w);
            if (weir.isEmpty() || f.runs(new Entry(SinkKind.BLACKHOLE, false), w).isEmpty()) {
                continue;
            }
            double weirSink = f.sinkCpuMicrosPerRow(weirEntry, w);
            double paimonSink = f.sinkCpuMicrosPerRow(new Entry(SinkKind.PAIMON, true), w);
            double ratio = weirSink / paimonSink;
            double requests = f.medianSteady(weir, "requests");
            double files = f.medianSteady(weir, "data_files");
            double meta = f.medianSteady(weir, "meta_requests");
            new TableRow(md)
                    .cell(w.id())
                    .num(weirSink, "%.2f")
                    .num(paimonSink, "%.2f")
                    .num(ratio, "%.2f")
                    .cell(Double.isNaN(ratio) ? "–" : ratio <= 0.2 ? "yes" : "no")
                    .num(requests, "%.1f")
                    .num(3 + files, "%.1f")
                    .cell(Double.isNaN(requests) ? "–" : requests <= 3 + files ? "yes" : "no")
                    .num(meta, "%.1f")
                    .cell(Double.isNaN(meta) ? "–" : meta <= 3 + files ? "yes" : "no")
                    .end();
        }
    }
}
