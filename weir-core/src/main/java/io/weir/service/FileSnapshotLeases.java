package io.weir.service;

import io.weir.SnapshotLease;
import io.weir.SnapshotLeases;
import io.weir.commit.CommitLog;
import io.weir.commit.LeaseFiles;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;

import java.time.Duration;
import java.util.List;

/** The {@link SnapshotLeases} of a table, stored as files under {@code _weir/consumers/}. */
public final class FileSnapshotLeases implements SnapshotLeases {
    private final CommitLog log;
    private final LeaseFiles<SnapshotLease> files;

    public FileSnapshotLeases(CommitLog log) {
        this.log = log;
        this.files = LeaseFiles.readers(log.io(), log.location());
    }

    @Override
    public SnapshotLease acquire(String consumerId, long commitId, Duration ttl) {
        ValidationException.check(
                ttl != null && !ttl.isNegative() && !ttl.isZero(),
                "Invalid lease duration %s for consumer %s of table %s: must be positive",
                ttl,
                consumerId,
                log.location());
        SnapshotLease lease;
        try {
            lease = new SnapshotLease(consumerId, commitId, log.clock().millis() + ttl.toMillis());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new ValidationException(
                    "Cannot lease table " + log.location() + ": " + e.getMessage(), e);
        }
        long latest = log.refresh().commitId();
        ValidationException.check(
                commitId <= latest,
                "Cannot lease commit %s of table %s for consumer %s: the latest commit is %s",
                commitId,
                log.location(),
                consumerId,
                latest);
        // Write first, then check: an expiry records the earliest retained commit first, then
        // reads the leases, so one of the two sees the other.
        files.write(lease);
        long earliest = log.earliestRetainedCommit();
        if (commitId < earliest) {
            files.delete(consumerId);
            throw new SnapshotExpiredException(
                    String.format(
                            "Cannot lease commit %d of table %s for consumer %s: it has expired"
                                    + " (the earliest retained commit is %d)",
                            commitId, log.location(), consumerId, earliest),
                    commitId,
                    earliest);
        }
        return lease;
    }

    @Override
    public void release(String consumerId) {
        try {
            SnapshotLease.checkConsumerId(consumerId);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new ValidationException(
                    "Cannot release a lease of table " + log.location() + ": " + e.getMessage(), e);
        }
        files.delete(consumerId);
    }

    @Override
    public List<SnapshotLease> list() {
        return files.list();
    }
}
