package io.weir.flink.compat;

import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;

/** Test-harness setup whose API differs between Flink 1.20 and Flink 2 (Flink 1.20's copy). */
public final class HarnessCompat {
    private HarnessCompat() {}

    /** Makes the harness's operator see a job with or without checkpointing. */
    public static void setCheckpointing(AbstractStreamOperatorTestHarness<?> harness, boolean on) {
        harness.getStreamConfig().setCheckpointingEnabled(on);
    }
}
