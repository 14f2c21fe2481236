package io.weir.bench.e2e;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a child JVM measured in one phase: wall and CPU seconds (user + sys of the process), GC
 * seconds, the process's peak resident set so far, the table's bytes after the phase, and the rows
 * a query returned (-1 if none).
 */
record PhaseFigures(
        double seconds,
        double cpuSeconds,
        double gcSeconds,
        double peakRssMb,
        long tableBytes,
        long rows,
        JsonNode json) {

    PhaseFigures(
            double seconds,
            double cpuSeconds,
            double gcSeconds,
            double peakRssMb,
            long tableBytes,
            long rows) {
        this(seconds, cpuSeconds, gcSeconds, peakRssMb, tableBytes, rows, null);
    }

    /** A figure of the phase's line (S3 requests, commits), NaN if absent. */
    double figure(String key) {
        return json == null || !json.has(key) || json.get(key).isNull()
                ? Double.NaN
                : json.get(key).asDouble();
    }

    static PhaseFigures of(JsonNode json) {
        return new PhaseFigures(
                json.path("seconds").asDouble(Double.NaN),
                json.path("cpu_s").asDouble(Double.NaN),
                json.path("gc_s").asDouble(Double.NaN),
                json.path("peak_rss_mb").asDouble(Double.NaN),
                json.path("table_bytes").asLong(-1),
                json.path("rows").asLong(-1),
                json);
    }
}
