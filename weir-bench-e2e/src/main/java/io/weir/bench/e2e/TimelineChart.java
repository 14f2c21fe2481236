package io.weir.bench.e2e;

import io.weir.bench.e2e.job.CompactionHistory;
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
 * The chart of a compaction suite (PNG, headless): over the time of one run per sink (the last good
 * run on the first schema), the ingest throughput, the live files per file group, the most sorted
 * runs of a file group and the compaction backlog; below, if fan-out runs ran, peak RSS and heap
 * after GC against the number of file groups.
 */
final class TimelineChart {
    private static final List<SinkKind> SINKS =
            List.of(SinkKind.WEIR, SinkKind.PAIMON, SinkKind.HUDI);
    private static final List<Color> COLORS =
            List.of(new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c));

    /** Throughput is the rows committed over at least this window, in seconds. */
    static final double WINDOW_S = 10;

    private TimelineChart() {}

    /** Draws the chart; false if no run had a timeline (nothing written). */
    static boolean write(CompactionReport.Results results, Path png) throws IOException {
        List<String> names = new ArrayList<>();
        List<Color> colors = new ArrayList<>();
        List<List<CompactionHistory.Point>> timelines = new ArrayList<>();
        List<Integer> buckets = new ArrayList<>();
        for (int s = 0; s < SINKS.size(); s++) {
            RunResult last = null;
            for (RunResult r : results.ingestion()) {
                if (r.settings().sink() == SINKS.get(s)
                        && r.settings().workload()
                                == results.ingestion().get(0).settings().workload()
                        && !CompactionReport.timeline(r).isEmpty()) {
                    last = r;
                }
            }
            if (last != null) {
                names.add(ReportWriter.shortName(SINKS.get(s)));
                colors.add(COLORS.get(s));
                timelines.add(CompactionReport.timeline(last));
                buckets.add(last.settings().buckets());
            }
        }
        if (timelines.isEmpty()) {
            return false;
        }
        int n = timelines.size();
        double[][] xs = new double[n][];
        double[][] rate = new double[n][];
        double[][] perGroup = new double[n][];
        double[][] runs = new double[n][];
        double[][] backlog = new double[n][];
        for (int s = 0; s < n; s++) {
            List<CompactionHistory.Point> t = timelines.get(s);
            xs[s] = new double[t.size()];
            rate[s] = new double[t.size()];
            perGroup[s] = new double[t.size()];
            runs[s] = new double[t.size()];
            backlog[s] = new double[t.size()];
            for (int i = 0; i < t.size(); i++) {
                CompactionHistory.Point p = t.get(i);
                xs[s][i] = p.seconds();
                rate[s][i] = rateAt(t, i);
                perGroup[s][i] = (double) p.liveFiles() / buckets.get(s);
                runs[s][i] = p.maxRuns();
                backlog[s][i] = p.backlogFiles();
            }
        }
        String time = "seconds since the first commit";
        List<LineChart> charts =
                List.of(
                        new LineChart(
                                "Ingest throughput, rows/s (committed, "
                                        + (int) WINDOW_S
                                        + " s window)",
                                time,
                                names,
                                colors,
                                xs,
                                rate),
                        new LineChart(
                                "Live files per file group", time, names, colors, xs, perGroup),
                        new LineChart(
                                "Most sorted runs in a file group (read amplification)",
                                time,
                                names,
                                colors,
                                xs,
                                runs),
                        new LineChart(
                                "Compaction backlog: ingested files not yet compacted",
                                time,
                                names,
                                colors,
                                xs,
                                backlog));
        boolean fanOut = !results.fanOut().isEmpty();
        int width = 1400;
        int panel = 400;
        int height = panel * (fanOut ? 3 : 2);
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            for (int i = 0; i < charts.size(); i++) {
                charts.get(i).draw(g, (i % 2) * width / 2, (i / 2) * panel, width / 2, panel);
            }
            if (fanOut) {
                fanOutCharts(results.fanOut(), g, 2 * panel, width, panel);
            }
        } finally {
            g.dispose();
        }
        ImageIO.write(image, "png", png.toFile());
        return true;
    }

    /** Rows committed per second over the last {@link #WINDOW_S} seconds (at least one step). */
    static double rateAt(List<CompactionHistory.Point> t, int i) {
        if (i == 0) {
            return Double.NaN;
        }
        int j = i - 1;
        while (j > 0 && t.get(i).seconds() - t.get(j).seconds() < WINDOW_S) {
            j--;
        }
        double dt = t.get(i).seconds() - t.get(j).seconds();
        return dt <= 0 ? Double.NaN : (t.get(i).rowsCommitted() - t.get(j).rowsCommitted()) / dt;
    }

    private static void fanOutCharts(
            List<RunResult> runs, Graphics2D g, int y, int width, int height) {
        List<String> groups = new ArrayList<>();
        runs.forEach(
                r -> {
                    if (!groups.contains(FanOut.of(r.settings()).label())) {
                        groups.add(FanOut.of(r.settings()).label());
                    }
                });
        List<String> names = new ArrayList<>();
        List<Color> colors = new ArrayList<>();
        List<double[]> rss = new ArrayList<>();
        List<double[]> heap = new ArrayList<>();
        for (int s = 0; s < SINKS.size(); s++) {
            double[] rssRow = new double[groups.size()];
            double[] heapRow = new double[groups.size()];
            java.util.Arrays.fill(rssRow, Double.NaN);
            java.util.Arrays.fill(heapRow, Double.NaN);
            boolean any = false;
            for (RunResult r : runs) {
                if (r.settings().sink() == SINKS.get(s) && r.ok()) {
                    int gi = groups.indexOf(FanOut.of(r.settings()).label());
                    rssRow[gi] = r.ingest().peakRssMb();
                    heapRow[gi] = r.ingest().figure("heap_after_gc_max_mb");
                    any = true;
                }
            }
            if (any) {
                names.add(ReportWriter.shortName(SINKS.get(s)));
                colors.add(COLORS.get(s));
                rss.add(rssRow);
                heap.add(heapRow);
            }
        }
        new BarChart(
                        "Peak RSS, MB, by file groups",
                        "%.0f",
                        groups,
                        names,
                        colors,
                        rss.toArray(new double[0][]))
                .draw(g, 0, y, width / 2, height);
        new BarChart(
                        "Heap after GC (max), MB, by file groups",
                        "%.0f",
                        groups,
                        names,
                        colors,
                        heap.toArray(new double[0][]))
                .draw(g, width / 2, y, width / 2, height);
    }
}
