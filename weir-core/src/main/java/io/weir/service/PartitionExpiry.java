package io.weir.service;

import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.ExpirePartitions;
import io.weir.ExpirePartitionsResult;
import io.weir.Partition;
import io.weir.commit.CommitLog;
import io.weir.commit.CommitOutcome;
import io.weir.commit.CommitRequest;
import io.weir.commit.TableState;
import io.weir.exceptions.ValidationException;
import io.weir.partition.TimePartitioning;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@link ExpirePartitions} of a table: finds the time partitions of the latest snapshot whose
 * period ended at or before the cutoff (by {@link TimePartitioning#instantBounds}, which never ends
 * a period early) and drops them with one CLEAN commit scoped to those partitions, resolved against
 * the latest state when it lands (so a concurrent append to an expired partition is dropped too,
 * and a concurrent drop of the same partitions does not conflict).
 */
public final class PartitionExpiry implements ExpirePartitions {
    /** Commit properties of a partition expiry. */
    public static final String EXPIRED_PARTITIONS = "expired-partitions";

    public static final String CUTOFF = "expired-before-millis";

    private final CommitLog log;
    private Long olderThan;
    private boolean dryRun;

    public PartitionExpiry(CommitLog log) {
        this.log = log;
    }

    @Override
    public ExpirePartitions olderThan(long timestampMillis) {
        this.olderThan = timestampMillis;
        return this;
    }

    @Override
    public ExpirePartitions dryRun() {
        this.dryRun = true;
        return this;
    }

    @Override
    public ExpirePartitionsResult apply() {
        return run(false);
    }

    @Override
    public ExpirePartitionsResult commit() {
        return run(!dryRun);
    }

    private ExpirePartitionsResult run(boolean change) {
        TableState state = log.refresh();
        TimePartitioning time = TimePartitioning.of(log.metadata());
        ValidationException.check(
                time != null,
                "Cannot expire partitions of table %s: it has no time partitions (set"
                        + " 'partition.time.column')",
                log.location());
        long cutoff = cutoff(time);
        Set<Partition> expired = new TreeSet<>();
        int files = 0;
        long records = 0;
        for (DataFile f : state.files()) {
            if (expired.contains(f.partition()) || isExpired(time, f.partition(), cutoff)) {
                expired.add(f.partition());
                files++;
                records += f.recordCount();
            }
        }
        if (!change || expired.isEmpty()) {
            return new ExpirePartitionsResult(
                    -1, cutoff, List.copyOf(expired), files, records, !change);
        }
        CommitOutcome result =
                log.commit(
                        CommitRequest.builder(CommitKind.CLEAN)
                                .overwritePartitions(expired)
                                .property(EXPIRED_PARTITIONS, Integer.toString(expired.size()))
                                .property(CUTOFF, Long.toString(cutoff))
                                .build());
        long removedRecords = 0;
        for (String path : result.commit().removed()) {
            DataFile f = state.file(path); // null if appended after the refresh: not counted
            removedRecords += f == null ? 0 : f.recordCount();
        }
        return new ExpirePartitionsResult(
                result.commit().id(),
                cutoff,
                List.copyOf(expired),
                result.commit().removed().size(),
                removedRecords,
                false);
    }

    private long cutoff(TimePartitioning time) {
        if (olderThan != null) {
            return olderThan;
        }
        Duration retention = time.expirationTime();
        ValidationException.check(
                retention != null,
                "Cannot expire partitions of table %s: set 'partition.expiration-time' or give a"
                        + " cutoff",
                log.location());
        return log.clock().millis() - retention.toMillis();
    }

    private static boolean isExpired(TimePartitioning time, Partition partition, long cutoff) {
        Long period = time.period(partition);
        return period != null && time.instantBounds(period)[1] <= cutoff;
    }
}
