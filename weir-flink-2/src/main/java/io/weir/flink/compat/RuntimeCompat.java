package io.weir.flink.compat;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.streaming.api.operators.StreamingRuntimeContext;

/** Runtime facts whose API differs between Flink 1.20 and Flink 2 (this is Flink 2's copy). */
public final class RuntimeCompat {
    private RuntimeCompat() {}

    /** Whether the job of this operator takes checkpoints. */
    public static boolean checkpointingEnabled(StreamingRuntimeContext context) {
        return CheckpointingOptions.isCheckpointingEnabled(context.getJobConfiguration());
    }
}
