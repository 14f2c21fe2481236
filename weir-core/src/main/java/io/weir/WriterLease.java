package io.weir;

/**
 * A writer's claim on the files it has written but not committed yet: while the lease is live,
 * orphan removal keeps every unreferenced file modified at or after {@code oldestFileMillis} (less
 * a clock allowance, {@link WriterLeases#CLOCK_ALLOWANCE}). Stored as {@code
 * _weir/writers/<writerId>.json}; see {@link WriterLeases} and docs/table-services.md.
 *
 * @param writerId who holds the lease: letters, digits, {@code .}, {@code _} and {@code -}, 1 to
 *     200 characters (it names the lease file)
 * @param oldestFileMillis a time at or before the creation of the writer's oldest file that is not
 *     committed yet (epoch millis, the writer's clock)
 * @param expiresMillis when the lease stops protecting anything unless renewed (epoch millis)
 */
public record WriterLease(String writerId, long oldestFileMillis, long expiresMillis) {

    public WriterLease {
        SnapshotLease.checkLeaseId("writer id", writerId);
        if (oldestFileMillis < 0) {
            throw new IllegalArgumentException(
                    "Invalid oldest file time "
                            + oldestFileMillis
                            + " of writer lease "
                            + writerId
                            + ": must be >= 0");
        }
    }

    /** Whether the lease still protects files at {@code nowMillis}. */
    public boolean isLive(long nowMillis) {
        return nowMillis < expiresMillis;
    }
}
