package io.weir.exceptions;

/**
 * A snapshot or commit was requested that snapshot expiry removed: time travel, an incremental read
 * or a reader lease that starts before the table's earliest retained commit. Nothing is damaged;
 * the request must start at or after {@link #earliestRetainedCommit()}.
 */
public class SnapshotExpiredException extends ValidationException {
    private final long commitId;
    private final long earliestRetainedCommit;

    public SnapshotExpiredException(String message, long commitId, long earliestRetainedCommit) {
        super(message);
        this.commitId = commitId;
        this.earliestRetainedCommit = earliestRetainedCommit;
    }

    /** The requested commit, or -1 for a time-travel request by timestamp. */
    public long commitId() {
        return commitId;
    }

    /** The table's earliest retained commit when the request failed. */
    public long earliestRetainedCommit() {
        return earliestRetainedCommit;
    }
}
