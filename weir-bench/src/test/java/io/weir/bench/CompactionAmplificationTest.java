package io.weir.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A short run of the amplification driver (docs/performance.md, "Incremental compaction"), both
 * policies: the rows check out against the driver's model, and incremental compaction rewrites
 * fewer records than rewriting whole groups while keeping the group to max-log-files + 1 runs.
 */
class CompactionAmplificationTest {
    @TempDir Path dir;

    @Test
    void incrementalCompactionWritesLessThanWholeRewrites() {
        CompactionAmplification.Report tiered =
                CompactionAmplification.run(
                        dir.resolve("tiered"),
                        BenchSchema.schema1,
                        60,
                        500,
                        Map.of("bucket", "1", "compaction.max-log-files", "5"));
        CompactionAmplification.Report whole =
                CompactionAmplification.run(
                        dir.resolve("whole"),
                        BenchSchema.schema1,
                        60,
                        500,
                        Map.of(
                                "bucket",
                                "1",
                                "compaction.max-log-files",
                                "5",
                                "compaction.max-size-amplification-percent",
                                "0"));
        assertThat(tiered.rows()).isEqualTo(whole.rows()).isPositive();
        assertThat(whole.wholeRewrites()).isEqualTo(whole.compactions()).isPositive();
        assertThat(tiered.wholeRewrites()).isLessThan(tiered.compactions());
        assertThat(tiered.compactedRecords()).isLessThan(whole.compactedRecords());
        assertThat(tiered.maxRuns()).isLessThanOrEqualTo(6);
    }
}
