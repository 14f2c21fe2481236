package io.weir.cli;

import java.util.Locale;

/** Byte counts for people: {@code 512 B}, {@code 3.4 KB}, {@code 1.2 GB} (powers of 1024). */
final class Sizes {
    private static final String[] UNITS = {"B", "KB", "MB", "GB", "TB"};

    private Sizes() {}

    static String format(long bytes) {
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return unit == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
    }
}
