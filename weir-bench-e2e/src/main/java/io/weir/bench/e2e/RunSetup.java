package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.SourceKind;

import java.util.Map;

/**
 * The settings every run of a session shares (BENCHMARK.md: parallelism 2, 4 buckets, checkpoints
 * every 10 s, {@code -Xmx6g}); {@code partitions}, above 1, partitions each table into that many
 * partitions of {@code buckets} buckets ({@code --partitions}); with {@code compaction} each sink
 * compacts in the writer (docs/benchmark.md, "Compaction on"); {@code tableOptions} go over each
 * sink's table options ({@code --table-option}); {@code keys}, if positive, is the number of keys
 * of every run ({@code --keys}), else each run's rows / 5; {@code timeLimitSeconds}, if positive,
 * stops an ingestion that has not ended by then (the fan-out runs of {@code --compaction on}:
 * {@code --fan-out-seconds}).
 */
record RunSetup(
        int parallelism,
        int buckets,
        int partitions,
        long checkpointIntervalMs,
        String heap,
        boolean bulkInsert,
        SourceKind source,
        boolean compaction,
        Map<String, String> tableOptions,
        long keys,
        long timeLimitSeconds) {
    RunSetup {
        if (parallelism < 1 || buckets < 1 || partitions < 1 || checkpointIntervalMs < 1) {
            throw new IllegalArgumentException(
                    "parallelism, buckets, partitions and checkpoint interval must be positive");
        }
        if (timeLimitSeconds < 0) {
            throw new IllegalArgumentException("--time-limit must not be negative");
        }
        tableOptions = Map.copyOf(tableOptions);
    }

    RunSetup(int parallelism, int buckets, long checkpointIntervalMs, String heap) {
        this(
                parallelism,
                buckets,
                1,
                checkpointIntervalMs,
                heap,
                false,
                SourceKind.GEN,
                false,
                Map.of(),
                0,
                0);
    }

    /**
     * The same runs into tables of {@code groups}' partitions and buckets, each ingestion stopped
     * after {@code seconds} if it has not ended (0: never): the fan-out runs of --compaction on.
     */
    RunSetup forFanOut(FanOut groups, long seconds) {
        return new RunSetup(
                parallelism,
                groups.buckets(),
                groups.partitions(),
                checkpointIntervalMs,
                heap,
                bulkInsert,
                source,
                compaction,
                tableOptions,
                keys,
                seconds);
    }
}
