package io.weir.flink.source;

import java.util.List;

/**
 * The enumerator's checkpoint: how far it has planned, the splits not yet assigned, and its lease.
 *
 * @param position the last commit turned into splits (a snapshot read or the end of a change range;
 *     discovery continues after it), or -1 before the start position is planned
 * @param pending unassigned splits; the splits of one file group in commit order
 * @param consumerId the id of the source's snapshot lease, or null if none was minted yet
 * @param leaseFloor the oldest commit a restore from this checkpoint may read (the enumerator's
 *     position and splits, and the splits its readers hold), or {@link Long#MAX_VALUE} if none
 */
public record WeirEnumeratorState(
        long position, List<WeirSplit> pending, String consumerId, long leaseFloor) {
    public static final WeirEnumeratorState INITIAL =
            new WeirEnumeratorState(-1, List.of(), null, Long.MAX_VALUE);

    public WeirEnumeratorState {
        pending = List.copyOf(pending);
    }

    /** A state without lease information (checkpoints of version 1). */
    public WeirEnumeratorState(long position, List<WeirSplit> pending) {
        this(position, pending, null, Long.MAX_VALUE);
    }

    /** Whether the start position was planned (else planning starts over on restore). */
    public boolean started() {
        return position >= 0;
    }
}
