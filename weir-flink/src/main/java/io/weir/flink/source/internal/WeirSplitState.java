package io.weir.flink.source.internal;

import io.weir.flink.source.WeirSplit;

/** A split being read and how many of its rows were emitted; changed on the task thread only. */
public final class WeirSplitState {
    private final WeirSplit split;
    private long emitted;

    public WeirSplitState(WeirSplit split) {
        this.split = split;
        this.emitted = split.recordsToSkip();
    }

    void emitted() {
        emitted++;
    }

    /** The split to checkpoint: its rows emitted so far are skipped when it is read again. */
    public WeirSplit toSplit() {
        return split.withRecordsToSkip(emitted);
    }
}
