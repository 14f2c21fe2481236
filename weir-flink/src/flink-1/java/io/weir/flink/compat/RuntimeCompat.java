package io.weir.flink.compat;

import org.apache.flink.streaming.api.operators.StreamingRuntimeContext;

/** Runtime facts whose API differs between Flink 1.20 and Flink 2 (this is Flink 1.20's copy). */
public final class RuntimeCompat {
    private RuntimeCompat() {}

    /** Whether the job of this operator takes checkpoints. */
    public static boolean checkpointingEnabled(StreamingRuntimeContext context) {
        return context.isCheckpointingEnabled();
    }
}
