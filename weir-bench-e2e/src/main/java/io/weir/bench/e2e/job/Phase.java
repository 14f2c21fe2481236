package io.weir.bench.e2e.job;

import java.util.Locale;

/** The phases of a run, in the order they run. */
public enum Phase {
    /** The timed ingestion: streaming job from the generator into the sink. */
    INGEST,
    /** Compaction of everything written (sinks with tables). */
    COMPACT,
    /** {@code SELECT COUNT(*)}, batch. */
    COUNT,
    /** A full scan of every column into a blackhole, batch. */
    SCAN,
    /** Every row read back and checked (not a measured figure). */
    VERIFY;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Phase parse(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
}
