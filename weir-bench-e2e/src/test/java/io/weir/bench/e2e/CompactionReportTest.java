package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.SourceKind;
import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.JobSettings;
import io.weir.bench.e2e.job.Phase;
import io.weir.bench.e2e.job.SinkKind;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CompactionReportTest {
    @TempDir Path dir;

    private static RunResult run(
            SinkKind sink, int buckets, double seconds, double cpu, ObjectNode figures) {
        return run(sink, 1, buckets, seconds, cpu, figures);
    }

    private static RunResult run(
            SinkKind sink,
            int partitions,
            int buckets,
            double seconds,
            double cpu,
            ObjectNode figures) {
        ObjectNode json = figures.deepCopy();
        json.put("seconds", seconds)
                .put("cpu_s", cpu)
                .put("gc_s", 0.5)
                .put("peak_rss_mb", 1000 + buckets)
                .put("table_bytes", 50_000_000)
                .put("heap_after_gc_max_mb", 100 + buckets / 10);
        Map<Phase, PhaseFigures> phases = new EnumMap<>(Phase.class);
        phases.put(Phase.INGEST, PhaseFigures.of(json));
        JobSettings settings =
                JobSettings.builder(sink, Workload.SCHEMA1, 1_000_000, Path.of("/tmp/x"))
                        .partitions(partitions)
                        .buckets(buckets)
                        .checkpointIntervalMs(2_000)
                        .phases(List.of(Phase.INGEST, Phase.VERIFY))
                        .compaction(true)
                        .build();
        return new RunResult(
                settings,
                phases,
                sink.writesTable()
                        ? JsonNodeFactory.instance.objectNode().put("verified", true)
                        : null,
                null);
    }

    /** The run as a child reports one stopped at its time limit: no check of its table. */
    private static RunResult stoppedAtItsLimit(RunResult run) {
        return new RunResult(run.settings(), run.phases(), null, null);
    }

    private static ObjectNode table(double writeAmp, int runsMax, String timeline) {
        return JsonNodeFactory.instance
                .objectNode()
                .put("write_amp", writeAmp)
                .put("runs_max", runsMax)
                .put("runs_median", runsMax - 2)
                .put("compaction_latency_p50_s", 6.5)
                .put("compaction_latency_max_s", 12.0)
                .put("uncompacted_commits", 1)
                .put("table_files", 40)
                .put("live_files", 8)
                .put("checkpoint_p50_ms", 300)
                .put("checkpoint_max_ms", 900)
                .put("peak_heap_mb", 700)
                .put("timeline", timeline);
    }

    @Test
    void writesTheMediansTheFanOutTheChartAndEveryRun() throws Exception {
        String timeline = "0.000,1000,4,1,4,100;2.000,3000,8,2,8,300;12.000,20000,4,1,0,0";
        List<RunResult> ingestion =
                List.of(
                        run(SinkKind.BLACKHOLE, 4, 2, 4, JsonNodeFactory.instance.objectNode()),
                        run(SinkKind.WEIR, 4, 2.5, 5, table(0.3, 5, timeline)),
                        run(SinkKind.PAIMON, 4, 5, 12, table(1.1, 10, timeline)));
        List<RunResult> fanOut =
                List.of(
                        run(SinkKind.WEIR, 1, 3, 5, table(0.2, 4, timeline)),
                        run(SinkKind.PAIMON, 10_000, 30, 60, table(1.5, 9, timeline)),
                        run(SinkKind.WEIR, 100, 100, 20, 40, table(0.4, 6, timeline)),
                        stoppedAtItsLimit(
                                run(
                                        SinkKind.WEIR,
                                        10_000,
                                        300.4,
                                        500,
                                        table(0.1, 12, timeline)
                                                .put("stopped_after_s", 300)
                                                .put("ingested_rows", 123_456))));
        Path report = dir.resolve("BENCHMARKS-compaction.md");
        CompactionReport.write(
                report,
                new CompactionReport.Results(
                        Instant.parse("2025-01-01T10:00:00Z"),
                        Instant.parse("2025-01-01T10:30:00Z"),
                        "1 / 1 / 1",
                        "2 / 2 / 2",
                        "./weir bench --all --compaction on",
                        new RunSetup(
                                2, 4, 1, 2_000, "6g", false, SourceKind.GEN, true, Map.of(), 0, 0),
                        1,
                        false,
                        ingestion,
                        fanOut));

        String md = Files.readString(report);
        assertThat(md)
                .contains("Measured by `./weir bench --all --compaction on`")
                .contains("(30 min)")
                .contains("exactly-once checkpoints every 2000 ms")
                // 400,000 rows/s = 80 % of 500,000; (5 - 4) s / 1 M rows = 1 µs
                .contains(
                        "| schema1 | weir | 1,000,000 | 1 | 400,000 | 80 % | 1.00 | 0.30 | 5 / 3"
                                + " | 6.5 / 12.0 | 1 | 40 / 50.0 | 8 | 300 / 900 | 1,004 | 100 |"
                                + " yes |")
                .contains(
                        "| schema1 | paimon | 1,000,000 | 1 | 200,000 | 40 % | 8.00 | 1.10 | 10 /"
                                + " 8 |")
                .contains("| schema1 | blackhole | 1,000,000 | 1 | 500,000 | (ceiling) | – | – |")
                .contains("| 1 | weir | 1,000,000 | 333,333 | 1,001 | 100 | 700 | 40 | 0.20 | 4 |")
                .contains(
                        "| 10,000 | paimon | 1,000,000 | 33,333 | 11,000 | 1,100 | 700 | 40 | 1.50"
                                + " | 9 |")
                .contains(
                        "| 10,000 (100 × 100) | weir | 1,000,000 | 50,000 | 1,100 | 110 | 700 |"
                                + " 40 | 0.40 | 6 | yes |")
                // rows/s of a stopped run would be the source's rows over a time they were not
                // all ingested in: none; and its table is not checked
                .contains(
                        "| 10,000 | weir | 123,456 in 300 s (stopped) | – | 11,000 | 1,100 | 700 |"
                                + " 40 | 0.10 | 12 | – |")
                .contains("`write-only`=`false`")
                .contains("![Throughput, sorted runs and compaction backlog over time")
                .contains("\"sink\":\"paimon\"");
        ObjectNode stopped = fanOut.get(3).summary();
        assertThat(stopped.get("rows_per_s").isNull()).isTrue();
        assertThat(stopped.get("stopped_after_s").asLong()).isEqualTo(300);
        assertThat(stopped.get("ingested_rows").asLong()).isEqualTo(123_456);
        assertThat(stopped.get("verified").isNull()).isTrue();
        BufferedImage png = ImageIO.read(dir.resolve("BENCHMARKS-compaction.png").toFile());
        assertThat(png.getWidth()).isEqualTo(1400);
        assertThat(png.getHeight()).isEqualTo(1200); // two rows of timelines, one of fan-out
    }
}
