package io.weir.flink.compat;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;

import java.time.Duration;

/** Test-harness setup whose API differs between Flink 1.20 and Flink 2 (Flink 2's copy). */
public final class HarnessCompat {
    private HarnessCompat() {}

    /** Makes the harness's operator see a job with or without checkpointing. */
    public static void setCheckpointing(AbstractStreamOperatorTestHarness<?> harness, boolean on) {
        if (on) {
            harness.getEnvironment()
                    .getJobConfiguration()
                    .set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(1));
        } else {
            harness.getEnvironment()
                    .getJobConfiguration()
                    .removeConfig(CheckpointingOptions.CHECKPOINTING_INTERVAL);
        }
    }
}
