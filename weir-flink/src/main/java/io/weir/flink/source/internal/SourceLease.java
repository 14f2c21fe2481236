package io.weir.flink.source.internal;

import io.weir.Table;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * The snapshot lease of one source (docs/table-services.md, "What the Flink source must do"): on
 * the oldest commit the source may still read or restart from, under a consumer id that is stable
 * across restarts. Written only from the enumerator's worker thread; the commit to lease is decided
 * on the coordinator thread and handed over in a volatile field.
 */
final class SourceLease {
    private static final Logger LOG = LoggerFactory.getLogger(SourceLease.class);

    /** No commit decided yet (before the start is planned). */
    static final long UNSET = -1;

    private final String consumerId;
    private final Duration ttl;
    private volatile long target = UNSET;
    private long held = UNSET;
    private boolean released;

    SourceLease(String consumerId, Duration ttl) {
        this.consumerId = consumerId;
        this.ttl = ttl;
    }

    String consumerId() {
        return consumerId;
    }

    Duration ttl() {
        return ttl;
    }

    /** The commit the lease should be on now, or {@link #UNSET}. */
    long target() {
        return target;
    }

    /**
     * Coordinator thread: the commit the lease should be on now ({@link ReadFloors#NONE}: none).
     */
    void target(long commitId) {
        target = commitId;
    }

    /**
     * Takes the lease on {@code commitId} before the first planning.
     *
     * @throws ValidationException if the snapshot has expired, naming the earliest retained commit
     */
    void acquire(Table table, long commitId, boolean resuming) {
        try {
            table.leases().acquire(consumerId, commitId, ttl);
            held = commitId;
            LOG.info(
                    "Weir source {} leases commit {} of table {} for {}",
                    consumerId,
                    commitId,
                    table.location(),
                    ttl);
        } catch (SnapshotExpiredException e) {
            throw expired(table, commitId, e, resuming);
        }
    }

    /**
     * Renews the lease on the current target (worker thread): every third of the ttl and when a
     * checkpoint completes. An I/O failure is logged and retried at the next renewal (the lease
     * still has two thirds of its time); an expired snapshot fails the source.
     */
    void renew(Table table) {
        long commit = target;
        if (released || commit == UNSET || held == UNSET) {
            return;
        }
        if (commit == ReadFloors.NONE) {
            release(table);
            return;
        }
        try {
            table.leases().acquire(consumerId, commit, ttl);
            held = commit;
        } catch (SnapshotExpiredException e) {
            throw expired(table, commit, e, true);
        } catch (RuntimeException e) {
            LOG.warn(
                    "Cannot renew the lease {} on table {}; trying again later",
                    consumerId,
                    table.location(),
                    e);
        }
    }

    /** Ends the lease: a bounded read finished. */
    void release(Table table) {
        if (released) {
            return;
        }
        try {
            table.leases().release(consumerId);
            released = true;
            LOG.info("Weir source {} released its lease on table {}", consumerId, table.location());
        } catch (RuntimeException e) {
            LOG.warn("Cannot release the lease {}; it ends by itself after {}", consumerId, ttl, e);
        }
    }

    private ValidationException expired(
            Table table, long commit, SnapshotExpiredException e, boolean resuming) {
        String problem =
                resuming
                        ? String.format(
                                "cannot resume reading table %s: commit %d, where it stands, has"
                                        + " expired (it was stopped, or could not renew its lease,"
                                        + " for longer than the lease lasts: %s)",
                                table.location(), commit, ttl)
                        : String.format(
                                "cannot start reading table %s at commit %d: that snapshot has"
                                        + " expired",
                                table.location(), commit);
        String message =
                String.format(
                        "Weir source %s %s. The earliest retained commit is %d: start at it or"
                                + " later ('scan.snapshot-id'), or retain snapshots longer"
                                + " ('snapshot.time-retained', 'snapshot.num-retained.min')",
                        consumerId, problem, e.earliestRetainedCommit());
        return new SnapshotExpiredException(message, commit, e.earliestRetainedCommit());
    }
}
