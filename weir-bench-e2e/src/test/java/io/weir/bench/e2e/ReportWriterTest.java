package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.SinkKind;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static io.weir.bench.e2e.Results.lifecycle;
import static io.weir.bench.e2e.Results.run;
import static org.assertj.core.api.Assertions.assertThat;

class ReportWriterTest {
    @TempDir Path dir;

    @Test
    void writesTheTablesTheChartAndEveryRun() throws Exception {
        long rows = 1_000_000;
        List<RunResult> ingestion =
                List.of(
                        run(SinkKind.BLACKHOLE, Workload.SCHEMA1, rows, 2, 4),
                        run(SinkKind.WEIR, Workload.SCHEMA1, rows, 2.5, 5),
                        run(SinkKind.PAIMON, Workload.SCHEMA1, rows, 5, 8),
                        run(SinkKind.BLACKHOLE117, Workload.SCHEMA1, 250_000, 1, 2),
                        run(SinkKind.HUDI, Workload.SCHEMA1, 250_000, 5, 8),
                        run(SinkKind.BLACKHOLE, Workload.SCHEMA2, rows, 4, 8),
                        run(SinkKind.WEIR, Workload.SCHEMA2, rows, 5, 10),
                        run(SinkKind.PAIMON, Workload.SCHEMA2, rows, 10, 16),
                        // Weir's job under the blackhole's CPU: a source-bound schema, noise
                        run(SinkKind.BLACKHOLE, Workload.SCHEMA3, rows, 2, 6),
                        run(SinkKind.WEIR, Workload.SCHEMA3, rows, 2.5, 5.8),
                        run(SinkKind.PAIMON, Workload.SCHEMA3, rows, 5, 10));
        List<RunResult> lifecycles =
                List.of(
                        lifecycle(SinkKind.WEIR, Workload.SCHEMA1, rows),
                        lifecycle(SinkKind.PAIMON, Workload.SCHEMA1, rows));
        SuiteResults results =
                new SuiteResults(
                        Instant.parse("2025-01-01T10:00:00Z"),
                        Instant.parse("2025-01-01T10:42:00Z"),
                        "1.0 / 1.0 / 1.0",
                        "2.0 / 2.0 / 2.0",
                        0.05,
                        1,
                        ingestion,
                        lifecycles);
        Path report = dir.resolve("BENCHMARKS.md");
        new ReportWriter(
                        report,
                        "./weir bench --all --rows-scale 0.05 --repeat 1",
                        new RunSetup(2, 4, 10_000, "6g"))
                .write(results);

        String md = Files.readString(report);
        assertThat(md)
                .contains("Measured by `./weir bench --all --rows-scale 0.05 --repeat 1`")
                .contains("2025-01-01 10:00 UTC to 2025-01-01 10:42 UTC (42 min)")
                // weir schema1: 400,000 rows/s = 80 % of 500,000; (5 - 4) s / 1 M rows = 1 µs
                .contains("| schema1 | weir | 1 M | 1 | 400,000 | 80 % | 80 | 5.0 | 1.00 |")
                .contains("| schema1 | paimon | 1 M | 1 | 200,000 | 40 % | 40 | 8.0 | 4.00 |")
                // hudi: 50,000 rows/s of 250,000; (8 - 2) s / 250,000 rows = 24 µs
                .contains("| schema1 | hudi | 250,000 | 1 | 50,000 | 20 % | 20 | 8.0 | 24.00 |")
                .contains("| schema1 | blackhole | 1 M | 1 | 500,000 | (ceiling) | – | 4.0 |")
                // cheaper peer on schema1: Paimon, 4 µs vs Weir's 1 µs
                .contains("| schema1 | Paimon 1.3.1 | 4.00 | 1.00 | 4.0× | 40 % | 80 % |")
                .contains("| schema2 | Paimon 1.3.1 | 8.00 | 2.00 | 4.0× | 40 % | 80 % |")
                .contains(
                        "| schema3 | Paimon 1.3.1 | 4.00 | -0.20 | Weir ≤ blackhole | 40 % | 80 % |")
                .contains(
                        "| schema1 | weir | 1 M | 10.0 (18.0) | 5.0 (8.0) | 2.0 (3.0) | 3.0 (5.0)"
                                + " | 20.0 (34.0) | 2.0 | 3.0 | yes |")
                .contains("`hoodie.bucket.index.num.buckets`=`4`")
                .contains("`path`=`<run dir>/bench`")
                .contains("- `nproc`: ")
                .contains("![Throughput and sink CPU per schema](BENCHMARKS.png)")
                .contains("{\"sink\":\"hudi\",\"schema\":\"schema1\",\"rows\":250000");
        BufferedImage chart = ImageIO.read(dir.resolve("BENCHMARKS.png").toFile());
        assertThat(chart.getWidth()).isEqualTo(1400);
    }
}
