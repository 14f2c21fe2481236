package io.weir.bench.e2e.job;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A warehouse on an object store or HDFS (docs/benchmark.md, "On S3", "On HDFS"): its URI, the
 * storage options that reach it (Weir's names: {@code s3.endpoint}, {@code s3.region}, {@code
 * s3.path-style-access}, {@code s3.access-key}, {@code s3.secret-key}; on HDFS {@code
 * hadoop.<key>}), where its objects can be measured on local disk (the data directory of a
 * versitygw that the driver started; null if unknown, and on HDFS), and the URL of the counters
 * (the driver's counting proxy, or the NameNode's counters; null if none).
 *
 * <p>The options are never on the child's command line (they would be in the run's log): the driver
 * passes them in the environment variable {@value #OPTIONS_ENV}, one {@code key=value} per line.
 */
public record RemoteWarehouse(
        String uri, Map<String, String> options, Path files, String countsUrl) {
    public static final String OPTIONS_ENV = "WEIR_BENCH_STORAGE_OPTIONS";

    public RemoteWarehouse {
        options = Map.copyOf(options);
    }

    /** Whether the warehouse is on an object store ({@code s3://}, {@code s3a://}). */
    public boolean onS3() {
        return uri.startsWith("s3:") || uri.startsWith("s3a:");
    }

    /**
     * The prefix of the counters' keys in a run's JSON line: {@code s3_} for the counting proxy's,
     * {@code hdfs_} for the NameNode's.
     */
    public String countsPrefix() {
        return onS3() ? "s3_" : "hdfs_";
    }

    /** The options as the environment variable's value. */
    public String optionsText() {
        StringBuilder s = new StringBuilder();
        new TreeMap<>(options).forEach((k, v) -> s.append(k).append('=').append(v).append('\n'));
        return s.toString();
    }

    /** The options from the environment variable's value. */
    public static Map<String, String> parseOptions(String text) {
        Map<String, String> options = new LinkedHashMap<>();
        if (text != null) {
            for (String line : text.split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    options.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                }
            }
        }
        return options;
    }

    /**
     * The options of Paimon's S3 file system (paimon-s3, Hadoop S3A inside): {@code s3.endpoint},
     * {@code s3.access-key}, {@code s3.secret-key}, {@code s3.path.style.access} as Paimon's
     * documentation names them, and {@code s3.endpoint.region} (S3A's {@code
     * fs.s3a.endpoint.region}: Paimon passes every {@code s3.} option on as {@code fs.s3a.}).
     */
    public Map<String, String> paimonOptions() {
        Map<String, String> paimon = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            switch (e.getKey()) {
                case "s3.path-style-access" -> paimon.put("s3.path.style.access", e.getValue());
                case "s3.region" -> paimon.put("s3.endpoint.region", e.getValue());
                default -> paimon.put(e.getKey(), e.getValue());
            }
        }
        if (!onS3()) {
            // HDFS: Paimon, like Weir, hands every hadoop.<key> option to its Hadoop client.
            return paimon;
        }
        // S3A's default (Hadoop 3.3) deletes the parent "directory marker" objects after each
        // file it creates; a server that maps keys to files (versitygw's posix backend) refuses to
        // delete a directory that is not empty, and S3A then retries for minutes. Hadoop's own
        // recommendation for new deployments is to keep them (fewer requests).
        paimon.putIfAbsent("s3.directory.marker.retention", "keep");
        return paimon;
    }
}
