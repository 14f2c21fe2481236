package io.weir.bench.e2e;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.util.List;
import java.util.Locale;

/**
 * A grouped bar chart drawn with Java 2D: one group of bars per x label, one bar per series, the
 * value above each bar. Missing values (NaN) leave a gap.
 *
 * @param values {@code values[series][group]}
 */
record BarChart(
        String title,
        String valueFormat,
        List<String> groups,
        List<String> series,
        List<Color> colors,
        double[][] values) {

    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 15);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 10);

    /** Draws the chart into the rectangle at (x, y) of the given size. */
    void draw(Graphics2D g, int x, int y, int width, int height) {
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(
                RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(x, y, width, height);

        int left = x + 50;
        int right = x + width - 15;
        int top = y + 60;
        int bottom = y + height - 40;

        g.setColor(Color.BLACK);
        g.setFont(TITLE);
        g.drawString(title, x + 15, y + 25);
        drawLegend(g, x + 15, y + 45, series, colors);

        double max = 0;
        for (double[] row : values) {
            for (double v : row) {
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        max = max <= 0 ? 1 : niceCeiling(max * 1.1);

        // y axis with 5 grid lines
        g.setFont(SMALL);
        for (int i = 0; i <= 5; i++) {
            double v = max * i / 5;
            int py = bottom - (int) Math.round((bottom - top) * (double) i / 5);
            g.setColor(new Color(225, 225, 225));
            g.drawLine(left, py, right, py);
            g.setColor(Color.DARK_GRAY);
            String label = max >= 10 ? String.format(Locale.ROOT, "%,.0f", v) : format(v);
            g.drawString(label, left - 6 - g.getFontMetrics().stringWidth(label), py + 4);
        }
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1f));
        g.drawLine(left, bottom, right, bottom);

        int groupWidth = (right - left) / Math.max(1, groups.size());
        int barWidth = Math.max(4, (int) (groupWidth * 0.8 / Math.max(1, series.size())));
        for (int gi = 0; gi < groups.size(); gi++) {
            int gx = left + gi * groupWidth + (groupWidth - barWidth * series.size()) / 2;
            for (int si = 0; si < series.size(); si++) {
                double v = values[si][gi];
                if (Double.isNaN(v)) {
                    continue;
                }
                int h = (int) Math.round((bottom - top) * Math.max(0, v) / max);
                int bx = gx + si * barWidth;
                g.setColor(colors.get(si));
                g.fillRect(bx, bottom - h, barWidth - 2, h);
                g.setColor(Color.BLACK);
                g.setFont(SMALL);
                String label = format(v);
                FontMetrics fm = g.getFontMetrics();
                g.drawString(
                        label, bx + (barWidth - 2 - fm.stringWidth(label)) / 2, bottom - h - 3);
            }
            g.setFont(LABEL);
            String label = groups.get(gi);
            g.drawString(
                    label,
                    left
                            + gi * groupWidth
                            + (groupWidth - g.getFontMetrics().stringWidth(label)) / 2,
                    bottom + 18);
        }
    }

    /** The legend: a colour swatch and the name of each series, in a row from (x, y). */
    static void drawLegend(Graphics2D g, int x, int y, List<String> series, List<Color> colors) {
        g.setFont(LABEL);
        int px = x;
        for (int si = 0; si < series.size(); si++) {
            g.setColor(colors.get(si));
            g.fillRect(px, y - 10, 12, 12);
            g.setColor(Color.BLACK);
            g.drawString(series.get(si), px + 16, y);
            px += 16 + g.getFontMetrics().stringWidth(series.get(si)) + 18;
        }
    }

    private String format(double v) {
        return String.format(Locale.ROOT, valueFormat, v);
    }

    /** A round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) ≥ {@code v}. */
    static double niceCeiling(double v) {
        double power = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (step * power >= v) {
                return step * power;
            }
        }
        return 10 * power;
    }
}
