package io.weir.bench.e2e;

import io.weir.bench.e2e.StoreFigures.Entry;
import io.weir.bench.e2e.gen.SourceKind;
import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.JobSettings;
import io.weir.bench.e2e.job.Phase;
import io.weir.bench.e2e.job.SinkKind;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The store reports (BENCHMARKS-hdfs.md, BENCHMARKS-s3.md) from made-up runs. */
class StoreReportTest {
    private static final long ROWS = 1_000_000;

    @Test
    void hdfsReportDividesTheNameNodesCountersByCommits() {
        Map<Entry, List<RunResult>> results = new LinkedHashMap<>();
        List<RunResult> all = new ArrayList<>();
        add(
                results,
                all,
                new Entry(SinkKind.BLACKHOLE, false),
                run(SinkKind.BLACKHOLE, 10, 20, null));
        ObjectNode weir = ingest(4, "[10, 20, 30, 400]");
        weir.put("hdfs_ops", 120)
                .put("hdfs_op_create", 20)
                .put("hdfs_op_complete", 20)
                .put("hdfs_op_addblock", 24)
                .put("hdfs_op_rename", 8)
                .put("hdfs_op_delete", 0)
                .put("hdfs_op_mkdirs", 4)
                .put("hdfs_op_getfileinfo", 32)
                .put("hdfs_op_getlisting", 4)
                .put("hdfs_op_fsync", 8)
                .put("hdfs_transactions", 80)
                .put("hdfs_bytes_written", 40_000_000)
                .put("steady_commits", 2)
                .put("hdfs_steady_ops", 50)
                .put("hdfs_steady_transactions", 30)
                .put("hdfs_steady_bytes_written", 20_000_000)
                .put("hdfs_steady_op_create", 9)
                .put("committed_files", 16);
        add(results, all, new Entry(SinkKind.WEIR, true), run(SinkKind.WEIR, 12, 25, weir));
        ObjectNode paimon = ingest(2, "[100, 200]");
        paimon.put("hdfs_ops", 100).put("hdfs_op_create", 30).put("hdfs_transactions", 70);
        add(results, all, new Entry(SinkKind.PAIMON, true), run(SinkKind.PAIMON, 20, 45, paimon));
        ObjectNode local = ingest(3, "[5, 6, 7]");
        local.put("committed_files", 12);
        add(results, all, new Entry(SinkKind.WEIR, false), run(SinkKind.WEIR, 11, 24, local));

        String md = report(new HdfsReport(), results, all);

        assertThat(md).startsWith("# Weir end-to-end benchmark on HDFS\n");
        assertThat(md).contains("docs/benchmark.md, \"On HDFS\"");
        // rows/s, % of blackhole, job CPU, sink CPU (25 - 20 s over 1 M rows), no local table MB
        assertThat(md)
                .contains(
                        "| schema1 | weir (HDFS) | 1,000,000 | 1 | 83,333 | 83 % | 25.0 | 5.00 | – |"
                                + " yes |");
        assertThat(md)
                .contains(
                        "| schema1 | weir (local disk) | 1,000,000 | 1 | 90,909 | 91 % | 24.0 | 4.00"
                                + " | 1.0 | yes |");
        // 4 commits: 120 ops = 30/commit; create 5, complete 5, addBlock 6, rename 2, delete 0,
        // mkdirs 1, getFileInfo 8, getListing 1, other (fsync) 2; 80 transactions = 20;
        // 16 files = 4; 40 MB = 10 MB/commit; p50 20 ms, p99 400 ms; steady over 2 commits:
        // 25 ops, 15 transactions, 10 MB
        assertThat(md)
                .contains(
                        "| schema1 | weir (HDFS) | 4 | 4 | 30.0 | 5.0 | 5.0 | 6.0 | 2.0 | 0.0 | 1.0 |"
                                + " 8.0 | 1.0 | 2.0 | 20.0 | 4.0 | 10.00 | 120 | 40.0 | 20 | 400 |"
                                + " 25.0 | 15.0 | 10.00 |");
        // on local disk only the committers' figures
        assertThat(md)
                .contains(
                        "| schema1 | weir (local disk) | 3 | 3 | – | – | – | – | – | – | – | – | – |"
                                + " – | – | 4.0 | – | – | – | 6 | 7 | – | – | – |");
        // fsync 8 over 4 commits, steady create 9 over 2 commits (figures absent: "–")
        assertThat(md).contains("| schema1 | weir (HDFS) | – | 2.0 | – | – | – | 4.5 | – |");
        // sink CPU: Weir 5, Paimon 25 µs/row: ratio 0.20, met
        assertThat(md).contains("| schema1 | 5.00 | 25.00 | 0.20 | yes |");
    }

    @Test
    void s3ReportKeepsItsRequestTables() {
        Map<Entry, List<RunResult>> results = new LinkedHashMap<>();
        List<RunResult> all = new ArrayList<>();
        add(
                results,
                all,
                new Entry(SinkKind.BLACKHOLE, false),
                run(SinkKind.BLACKHOLE, 10, 20, null));
        ObjectNode weir = ingest(2, "[50, 70]");
        weir.put("s3_requests", 20)
                .put("s3_get", 4)
                .put("s3_put", 12)
                .put("s3_data_files", 8)
                .put("s3_meta_requests", 6)
                .put("s3_meta_put", 4)
                .put("steady_commits", 1)
                .put("s3_steady_requests", 9)
                .put("s3_steady_data_files", 4)
                .put("s3_steady_meta_requests", 3);
        add(results, all, new Entry(SinkKind.WEIR, true), run(SinkKind.WEIR, 12, 25, weir));

        String md = report(new S3Report(), results, all);

        assertThat(md).startsWith("# Weir end-to-end benchmark on S3\n");
        assertThat(md)
                .contains("| schema1 | weir (S3) | 1,000,000 | 1 | 83,333 | 83 % | 25.0 | 5.00 |");
        assertThat(md).contains("| schema1 | weir (S3) | 2 | 2 | 10.0 | 2.0 | – | 6.0 |");
        assertThat(md).contains("| schema1 | weir (S3) | – | – | 2.0 |");
        // steady 9 requests ≤ 3 + 4 files? no; 3 metadata requests ≤ 7: yes
        assertThat(md).contains("| 9.0 | 7.0 | no | 3.0 | yes |");
    }

    private static String report(
            StoreReport store, Map<Entry, List<RunResult>> results, List<RunResult> all) {
        StoreSuite suite =
                new StoreSuite(
                        List.of(SinkKind.WEIR, SinkKind.PAIMON),
                        List.of(Workload.SCHEMA1),
                        0.05,
                        1,
                        true,
                        true);
        return suite.report(
                store,
                results,
                all,
                "./weir bench --all --warehouse " + store.name().toLowerCase(),
                new RunSetup(2, 4, 1, 10_000, "6g", false, SourceKind.GEN, false, Map.of(), 0, 0),
                "a store",
                Instant.parse("2026-01-01T10:00:00Z"),
                Instant.parse("2026-01-01T10:12:00Z"),
                "1.0 / 1.0 / 1.0",
                "2.0 / 2.0 / 2.0");
    }

    private static void add(
            Map<Entry, List<RunResult>> results, List<RunResult> all, Entry e, RunResult r) {
        results.computeIfAbsent(e, k -> new ArrayList<>()).add(r);
        all.add(r);
    }

    private static ObjectNode ingest(int commits, String commitMs) {
        return JsonNodeFactory.instance
                .objectNode()
                .put("checkpoints", commits)
                .put("commits", commits)
                .put("commit_ms", commitMs);
    }

    private static RunResult run(SinkKind sink, double seconds, double cpu, ObjectNode json) {
        Map<Phase, PhaseFigures> phases = new EnumMap<>(Phase.class);
        phases.put(Phase.INGEST, new PhaseFigures(seconds, cpu, 0.5, 900, 1_000_000, -1, json));
        JobSettings settings =
                JobSettings.builder(sink, Workload.SCHEMA1, ROWS, Path.of("/tmp/x"))
                        .phases(List.of(Phase.INGEST, Phase.VERIFY))
                        .build();
        return new RunResult(
                settings,
                phases,
                sink.writesTable()
                        ? JsonNodeFactory.instance.objectNode().put("verified", true)
                        : null,
                null);
    }
}
