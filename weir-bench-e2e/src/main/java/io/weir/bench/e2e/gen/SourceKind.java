package io.weir.bench.e2e.gen;

import java.util.Locale;

/** Where a run's rows come from (docs/benchmark.md, "The source"). */
public enum SourceKind {
    /**
     * {@code weir-bench-gen}: every row a function of its index, so a table is checked row by row
     * against the rows generated again. The default.
     */
    GEN,
    /**
     * Flink's {@code datagen} connector as BENCHMARK.md declares it. Its random values cannot be
     * seeded, so a table is checked by its keys and the shape of its values ({@link
     * DatagenExpectation}), not value by value.
     */
    DATAGEN;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SourceKind parse(String text) {
        for (SourceKind kind : values()) {
            if (kind.id().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return kind;
            }
        }
        throw new IllegalArgumentException(
                "Unknown source '" + text + "': expected gen or datagen");
    }
}
