package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.SinkKind;

import javax.imageio.ImageIO;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The report's chart (PNG, drawn headless): per schema, each sink's throughput as a share of its
 * blackhole ceiling, and its sink CPU per row.
 */
final class ReportChart {
    private static final List<SinkKind> SINKS =
            List.of(SinkKind.WEIR, SinkKind.PAIMON, SinkKind.HUDI);
    private static final List<Color> COLORS =
            List.of(new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c));

    private ReportChart() {}

    static void write(List<SinkMedians> medians, List<Workload> workloads, Path png)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<String> groups = workloads.stream().map(Workload::id).toList();
        List<String> names = new ArrayList<>();
        List<Color> colors = new ArrayList<>();
        List<double[]> share = new ArrayList<>();
        List<double[]> cpu = new ArrayList<>();
        for (int s = 0; s < SINKS.size(); s++) {
            SinkKind sink = SINKS.get(s);
            double[] shareRow = new double[workloads.size()];
            double[] cpuRow = new double[workloads.size()];
            boolean any = false;
            for (int w = 0; w < workloads.size(); w++) {
                shareRow[w] = Double.NaN;
                cpuRow[w] = Double.NaN;
                SinkMedians m = ReportWriter.find(medians, sink, workloads.get(w), -1);
                SinkMedians ceiling = m == null ? null : ReportWriter.ceilingOf(medians, m);
                if (ceiling != null && m.runs() > 0 && ceiling.runs() > 0) {
                    shareRow[w] = 100 * m.shareOf(ceiling);
                    cpuRow[w] = m.sinkCpuMicrosPerRow(ceiling);
                    any = true;
                }
            }
            if (any) {
                names.add(ReportWriter.shortName(sink));
                colors.add(COLORS.get(s));
                share.add(shareRow);
                cpu.add(cpuRow);
            }
        }
        BarChart shares =
                new BarChart(
                        "Throughput, % of the blackhole ceiling (higher is better)",
                        "%.0f", groups, names, colors, share.toArray(new double[0][]));
        BarChart cpus =
                new BarChart(
                        "Sink CPU per row, µs (lower is better)",
                        "%.1f",
                        groups,
                        names,
                        colors,
                        cpu.toArray(new double[0][]));
        int width = 1400;
        int height = 460;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            shares.draw(g, 0, 0, width / 2, height);
            cpus.draw(g, width / 2, 0, width / 2, height);
        } finally {
            g.dispose();
        }
        ImageIO.write(image, "png", png.toFile());
    }
}
