package io.weir.bench.e2e;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.util.List;
import java.util.Locale;

/**
 * A line chart drawn with Java 2D: one line per series over a shared x axis (seconds), the y axis
 * from 0 to a round number above the largest value.
 *
 * @param xs {@code xs[series][point]}
 * @param ys {@code ys[series][point]}
 */
record LineChart(
        String title,
        String xLabel,
        List<String> series,
        List<Color> colors,
        double[][] xs,
        double[][] ys) {

    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 14);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 10);

    void draw(Graphics2D g, int x, int y, int width, int height) {
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(
                RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(x, y, width, height);
        int left = x + 60;
        int right = x + width - 15;
        int top = y + 60;
        int bottom = y + height - 40;
        g.setColor(Color.BLACK);
        g.setFont(TITLE);
        g.drawString(title, x + 15, y + 25);
        BarChart.drawLegend(g, x + 15, y + 45, series, colors);
        double maxX = 0;
        double maxY = 0;
        for (int s = 0; s < xs.length; s++) {
            for (int i = 0; i < xs[s].length; i++) {
                maxX = Math.max(maxX, xs[s][i]);
                if (!Double.isNaN(ys[s][i])) {
                    maxY = Math.max(maxY, ys[s][i]);
                }
            }
        }
        maxX = maxX <= 0 ? 1 : BarChart.niceCeiling(maxX);
        maxY = maxY <= 0 ? 1 : BarChart.niceCeiling(maxY * 1.1);
        g.setFont(SMALL);
        for (int i = 0; i <= 5; i++) {
            int py = bottom - (int) Math.round((bottom - top) * i / 5.0);
            g.setColor(new Color(225, 225, 225));
            g.drawLine(left, py, right, py);
            g.setColor(Color.DARK_GRAY);
            String label = label(maxY * i / 5);
            g.drawString(label, left - 6 - g.getFontMetrics().stringWidth(label), py + 4);
            int pxl = left + (int) Math.round((right - left) * i / 5.0);
            String xl = label(maxX * i / 5);
            g.drawString(xl, pxl - g.getFontMetrics().stringWidth(xl) / 2, bottom + 14);
        }
        g.setColor(Color.BLACK);
        g.drawLine(left, bottom, right, bottom);
        g.drawLine(left, top, left, bottom);
        g.setFont(LABEL);
        g.drawString(
                xLabel, (left + right - g.getFontMetrics().stringWidth(xLabel)) / 2, bottom + 32);
        g.setStroke(new BasicStroke(2f));
        for (int s = 0; s < xs.length; s++) {
            g.setColor(colors.get(s));
            int lastX = -1;
            int lastY = -1;
            for (int i = 0; i < xs[s].length; i++) {
                if (Double.isNaN(ys[s][i])) {
                    lastX = -1;
                    continue;
                }
                int cx = left + (int) Math.round((right - left) * xs[s][i] / maxX);
                int cy = bottom - (int) Math.round((bottom - top) * ys[s][i] / maxY);
                if (lastX >= 0) {
                    g.drawLine(lastX, lastY, cx, cy);
                } else {
                    g.fillOval(cx - 2, cy - 2, 4, 4);
                }
                lastX = cx;
                lastY = cy;
            }
        }
        g.setStroke(new BasicStroke(1f));
    }

    private static String label(double v) {
        return v >= 10 || v == 0
                ? String.format(Locale.ROOT, "%,.0f", v)
                : String.format(Locale.ROOT, "%.1f", v);
    }
}
