package io.weir.service;

import io.weir.SnapshotLease;
import io.weir.commit.CommitLog;
import io.weir.exceptions.CorruptFileException;

import java.util.List;

/**
 * Decides the earliest commit to retain from the retention bounds (docs/table-services.md): counts,
 * age and reader leases.
 *
 * @param minRetained never retain fewer of the latest commits than this (at least 1)
 * @param maxRetained retain no more commits than this, unless {@code minRetained} or a lease says
 *     otherwise
 * @param cutoffMillis snapshots superseded at or before this time may expire
 */
record RetentionPolicy(int minRetained, int maxRetained, long cutoffMillis) {

    RetentionPolicy {
        if (minRetained < 1) {
            throw new IllegalArgumentException(
                    "Invalid number of commits to retain: " + minRetained + ", must be >= 1");
        }
        maxRetained = Math.max(minRetained, maxRetained);
    }

    /**
     * The earliest commit to retain, at least {@code earliest} (expiry never moves backwards) and
     * at most {@code latest}.
     *
     * @param latest the latest commit
     * @param earliest the current earliest retained commit (0 if none expired)
     * @param leases the leases to honour, live ones only
     */
    long earliestToRetain(CommitLog log, long latest, long earliest, List<SnapshotLease> leases) {
        if (latest == 0) {
            return earliest;
        }
        long retain = Math.max(supersededBy(log, latest, earliest), latest - maxRetained + 1);
        retain = Math.min(retain, latest - minRetained + 1);
        for (SnapshotLease lease : leases) {
            retain = Math.min(retain, lease.commitId());
        }
        return Math.max(retain, earliest);
    }

    /**
     * The commit that was the latest at the cutoff (the greatest one made at or before it): every
     * snapshot before it was superseded by then. 0 if the cutoff precedes every retained commit.
     * Binary search: commit timestamps never decrease.
     */
    private long supersededBy(CommitLog log, long latest, long earliest) {
        long lo = Math.max(1, earliest);
        long hi = latest;
        long found = 0;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            if (timestamp(log, mid, latest) <= cutoffMillis) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /**
     * A commit's timestamp; for a commit that a rollback abandoned and that cannot be read, that of
     * the next one that can (never less: timestamps never decrease).
     */
    private static long timestamp(CommitLog log, long id, long latest) {
        CorruptFileException first = null;
        for (long c = id; c <= latest; c++) {
            try {
                return log.commit(c).timestampMillis();
            } catch (CorruptFileException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        throw first;
    }
}
