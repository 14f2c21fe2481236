package io.weir.bench.e2e;

import io.weir.bench.e2e.job.JobSettings;
import io.weir.bench.e2e.job.Phase;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;
import java.util.Set;

/**
 * The outcome of one run (one child JVM): the figures of each phase it completed, and why it failed
 * if it did.
 *
 * @param phases the figures per phase, in the order they ran
 * @param verification the verify phase's line, or null if it did not run
 * @param failure null, or why the run failed (the log has the details)
 */
record RunResult(
        JobSettings settings,
        Map<Phase, PhaseFigures> phases,
        JsonNode verification,
        String failure) {

    RunResult {
        phases = Map.copyOf(phases);
    }

    /**
     * The figures of {@code --compaction on} copied from the ingestion's line (the table's history,
     * docs/benchmark.md); its {@code timeline} stays in the line (long).
     */
    static final Set<String> COMPACTION_FIELDS =
            Set.of(
                    "peak_heap_mb",
                    "heap_after_gc_max_mb",
                    "table_files",
                    "ingest_commits",
                    "ingested_rows",
                    "stopped_after_s",
                    "ingest_commits_with_files",
                    "compaction_commits",
                    "ingested_bytes",
                    "compaction_bytes_written",
                    "compaction_bytes_read",
                    "write_amp",
                    "runs_max",
                    "runs_median",
                    "file_groups",
                    "live_files",
                    "live_bytes",
                    "compacted_commits",
                    "uncompacted_commits",
                    "compaction_latency_p50_s",
                    "compaction_latency_max_s",
                    "checkpoint_p50_ms",
                    "checkpoint_max_ms");

    boolean ok() {
        return failure == null && phases.containsKey(Phase.INGEST);
    }

    PhaseFigures ingest() {
        return phases.get(Phase.INGEST);
    }

    double rowsPerSecond() {
        return ok() && !stopped() ? settings.rows() / ingest().seconds() : Double.NaN;
    }

    /** Whether the ingestion was stopped at its time limit, before the source's last row. */
    boolean stopped() {
        return stopped(ingest());
    }

    /** Whether an ingestion's figures (null: none) say it was stopped at its time limit. */
    static boolean stopped(PhaseFigures ingest) {
        return ingest != null && ingest.json() != null && ingest.json().has("stopped_after_s");
    }

    /** True or false once checked; null for sinks without a table, or when not checked. */
    Boolean verified() {
        if (failure != null) {
            return false;
        }
        return verification == null ? null : verification.path("verified").asBoolean(false);
    }

    /**
     * The line {@code ./weir bench} prints: sink, schema, rows, seconds, rows_per_s, cpu_s, gc_s,
     * peak_rss_mb, table_bytes, verified, parallelism, flink, source; then the other phases'
     * seconds and CPU seconds, if they ran.
     */
    ObjectNode summary() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("sink", settings.sink().id());
        json.put("schema", settings.workload().id());
        json.put("rows", settings.rows());
        if (!settings.bulkInsert()) {
            json.put("keys", settings.keys());
        }
        PhaseFigures ingest = ingest();
        if (ingest != null) {
            json.put("seconds", round(ingest.seconds()));
            if (stopped()) {
                json.putNull("rows_per_s");
            } else {
                json.put("rows_per_s", Math.round(settings.rows() / ingest.seconds()));
            }
            json.put("cpu_s", round(ingest.cpuSeconds()));
            json.put("gc_s", round(ingest.gcSeconds()));
            json.put("peak_rss_mb", Math.round(ingest.peakRssMb()));
            json.put("table_bytes", ingest.tableBytes());
        }
        Boolean verified = verified();
        if (verified == null) {
            json.putNull("verified");
        } else {
            json.put("verified", verified);
        }
        json.put("parallelism", settings.parallelism());
        json.put("flink", settings.sink().flinkVersion());
        json.put("source", settings.source().id());
        if (settings.compaction()) {
            json.put("compaction", "on");
            json.put("buckets", settings.buckets());
        }
        if (settings.partitions() > 1) {
            json.put("partitions", settings.partitions());
        }
        if (settings.remote() != null) {
            json.put("storage", settings.remote().onS3() ? "s3" : "hdfs");
        }
        if (ingest != null && ingest.json() != null) {
            // The store's counters of the ingestion (the S3 proxy's or the NameNode's), commits
            // and checkpoints.
            ingest.json()
                    .fields()
                    .forEachRemaining(
                            e -> {
                                String k = e.getKey();
                                if (k.startsWith("s3_")
                                        || k.startsWith("hdfs_")
                                        || k.startsWith("commit")
                                        || k.equals("checkpoints")
                                        || k.equals("steady_commits")
                                        || COMPACTION_FIELDS.contains(k)) {
                                    json.set(k, e.getValue());
                                }
                            });
        }
        for (Phase phase : new Phase[] {Phase.COMPACT, Phase.COUNT, Phase.SCAN}) {
            PhaseFigures figures = phases.get(phase);
            if (figures != null) {
                json.put(phase.id() + "_s", round(figures.seconds()));
                json.put(phase.id() + "_cpu_s", round(figures.cpuSeconds()));
            }
        }
        if (failure != null) {
            json.put("failure", failure);
        }
        return json;
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
