package io.weir.bench.e2e;

import java.util.Locale;

/**
 * {@code --compaction}: off (BENCHMARK.md's write-only tables), on, or long (docs/benchmark.md).
 */
enum CompactionMode {
    OFF,
    ON,
    LONG;

    static CompactionMode parse(String text) {
        for (CompactionMode mode : values()) {
            if (mode.name().equalsIgnoreCase(text.trim())) {
                return mode;
            }
        }
        throw new IllegalArgumentException(
                "Unknown compaction mode '" + text + "': expected off, on or long");
    }

    String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
