package io.weir.options;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A number of bytes, written as {@code 256 mb}, {@code 64kb}, {@code 1 gb} or plain bytes. */
public record MemorySize(long bytes) {
    private static final Pattern FORMAT =
            Pattern.compile("\\s*(\\d+)\\s*(b|bytes|k|kb|kib|m|mb|mib|g|gb|gib|t|tb|tib)?\\s*");

    public MemorySize {
        if (bytes < 0) {
            throw new IllegalArgumentException("Invalid memory size " + bytes + ": must be >= 0");
        }
    }

    public static MemorySize ofMebiBytes(long mb) {
        return new MemorySize(mb << 20);
    }

    public static MemorySize parse(String text) {
        Matcher m = FORMAT.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "Invalid memory size '" + text + "' (expected e.g. '64 kb', '256 mb', '1 gb')");
        }
        long value = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "b" : m.group(2);
        int shift =
                switch (unit.charAt(0)) {
                    case 'k' -> 10;
                    case 'm' -> 20;
                    case 'g' -> 30;
                    case 't' -> 40;
                    default -> 0;
                };
        if (shift > 0 && value > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException("Invalid memory size '" + text + "': too large");
        }
        return new MemorySize(value << shift);
    }

    @Override
    public String toString() {
        String[] units = {"b", "kb", "mb", "gb", "tb"};
        long v = bytes;
        int u = 0;
        while (u < units.length - 1 && v != 0 && v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        return v + " " + units[u];
    }
}
