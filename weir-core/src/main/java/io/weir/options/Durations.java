package io.weir.options;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and formats durations as {@code 500 ms}, {@code 30 s}, {@code 10 min}, {@code 7 d}: the
 * syntax of every duration option, command flag and procedure argument.
 */
public final class Durations {
    private static final Pattern FORMAT =
            Pattern.compile("\\s*(\\d+)\\s*(ms|s|sec|min|m|h|d)?\\s*");

    private Durations() {}

    /**
     * Parses a duration; a number without unit is milliseconds.
     *
     * @throws IllegalArgumentException if {@code text} is not a duration
     */
    public static Duration parse(String text) {
        Matcher m = FORMAT.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration");
        }
        long v = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(v);
            case "s", "sec" -> Duration.ofSeconds(v);
            case "min", "m" -> Duration.ofMinutes(v);
            case "h" -> Duration.ofHours(v);
            case "d" -> Duration.ofDays(v);
            default -> throw new IllegalArgumentException("unknown unit " + unit);
        };
    }

    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 86_400_000L == 0 && ms != 0) {
            return ms / 86_400_000L + " d";
        } else if (ms % 3_600_000L == 0 && ms != 0) {
            return ms / 3_600_000L + " h";
        } else if (ms % 60_000L == 0 && ms != 0) {
            return ms / 60_000L + " min";
        } else if (ms % 1000L == 0 && ms != 0) {
            return ms / 1000L + " s";
        }
        return ms + " ms";
    }
}
