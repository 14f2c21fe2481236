package io.weir.bench.e2e.job;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

import java.util.HashMap;
import java.util.Map;

/**
 * The Flink setup of BENCHMARK.md: local execution in this JVM, parallelism P, exactly-once
 * checkpoints (hashmap state backend), no restarts. Keys that Flink 1.17 and 1.20 both know.
 */
final class Environments {
    private Environments() {}

    /** The streaming environment of the ingestion. */
    static TableEnvironment streaming(JobSettings settings) {
        Map<String, String> conf = common(settings);
        conf.put("execution.runtime-mode", "streaming");
        conf.put("execution.checkpointing.interval", settings.checkpointIntervalMs() + " ms");
        conf.put("execution.checkpointing.mode", "EXACTLY_ONCE");
        conf.put("state.backend.type", "hashmap");
        if (settings.compaction()) {
            // Checkpoints in files under the run's directory (FileSystemCheckpointStorage), as in
            // production: with 1,000 buckets and more, Paimon's committer state outgrows the
            // JobManager storage's 5 MB limit and its job fails (docs/benchmark.md).
            conf.put(
                    "state.checkpoints.dir",
                    settings.dir().resolve("checkpoints").toUri().toString());
        }
        if (settings.sink().system() == SinkKind.WEIR
                || settings.sink().system() == SinkKind.PAIMON) {
            // Records each commit's duration from the sinks' committer metrics (CommitProbe).
            conf.put(
                    "metrics.reporter." + CommitProbe.NAME + ".factory.class",
                    CommitProbe.Factory.class.getName());
        }
        return TableEnvironment.create(
                EnvironmentSettings.newInstance()
                        .inStreamingMode()
                        .withConfiguration(Configuration.fromMap(conf))
                        .build());
    }

    /** A batch environment for the compaction procedure and the reads. */
    static TableEnvironment batch(JobSettings settings) {
        Map<String, String> conf = common(settings);
        conf.put("execution.runtime-mode", "batch");
        // Paimon's procedures wait for their job only with this.
        conf.put("table.dml-sync", "true");
        return TableEnvironment.create(
                EnvironmentSettings.newInstance()
                        .inBatchMode()
                        .withConfiguration(Configuration.fromMap(conf))
                        .build());
    }

    private static Map<String, String> common(JobSettings settings) {
        Map<String, String> conf = new HashMap<>();
        conf.put("parallelism.default", String.valueOf(settings.parallelism()));
        conf.put("restart-strategy.type", "none");
        // The embedded cluster's REST endpoint: loopback, any free port (other runs may be up).
        conf.put("rest.address", "127.0.0.1");
        conf.put("rest.bind-address", "127.0.0.1");
        conf.put("rest.bind-port", "0");
        return conf;
    }
}
