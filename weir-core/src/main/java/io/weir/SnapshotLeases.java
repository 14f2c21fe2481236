package io.weir;

import io.weir.exceptions.SnapshotExpiredException;

import java.time.Duration;
import java.util.List;

/**
 * Leases by which readers protect the snapshots they read from {@link Table#expireSnapshots()}. A
 * streaming reader (the Flink source) holds one lease under a stable consumer id, on the oldest
 * snapshot it may still read or restart from, and renews it well before it ends; a reader that
 * stops renewing loses its protection when the lease ends, so a dead job never pins the table's
 * history forever. See docs/table-services.md.
 *
 * <p>Protocol: {@link #acquire} first writes the lease, then checks that the snapshot is still
 * retained; expiry first records the new earliest retained commit, then reads the leases again. So
 * either the reader learns that its snapshot expired, or the expiry sees the lease and keeps the
 * snapshot's files.
 */
public interface SnapshotLeases {

    /**
     * Takes or renews (replaces) the lease of {@code consumerId}: snapshot {@code commitId} and
     * every later one stay readable until {@code ttl} from now (by the table's clock). Renewing may
     * move the lease to a later commit, which releases the older snapshots.
     *
     * @throws SnapshotExpiredException if the snapshot has expired already; the lease is removed
     * @throws io.weir.exceptions.ValidationException if the commit does not exist yet, or the id or
     *     ttl is invalid
     */
    SnapshotLease acquire(String consumerId, long commitId, Duration ttl);

    /** Ends the lease of {@code consumerId}; does nothing if it has none. */
    void release(String consumerId);

    /** Every lease, including ended ones that expiry has not removed yet. */
    List<SnapshotLease> list();
}
