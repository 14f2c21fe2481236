package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.SourceKind;

/**
 * The settings every run of a session shares (BENCHMARK.md: parallelism 2, 4 buckets, checkpoints
 * every 10 s, {@code -Xmx6g}).
 */
record RunSetup(
        int parallelism,
        int buckets,
        long checkpointIntervalMs,
        String heap,
        boolean bulkInsert,
        SourceKind source) {
    RunSetup {
        if (parallelism < 1 || buckets < 1 || checkpointIntervalMs < 1) {
            throw new IllegalArgumentException(
                    "parallelism, buckets and checkpoint interval must be positive");
        }
    }

    RunSetup(int parallelism, int buckets, long checkpointIntervalMs, String heap) {
        this(parallelism, buckets, checkpointIntervalMs, heap, false, SourceKind.GEN);
    }
}
