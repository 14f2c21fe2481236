package io.weir;

import io.weir.partition.TimePartitioning;

/**
 * Drops the time partitions whose whole period ended before a cutoff, in ONE {@code CLEAN} commit:
 * {@code table.expirePartitions().commit()}. The cutoff is {@code now - partition.expiration-time}
 * unless {@link #olderThan} gives one. A partition (a local day or hour, {@link TimePartitioning})
 * expires once every instant of its period is before the cutoff; a partition whose time is null
 * never does. The commit removes every file live in those partitions when it lands, including files
 * appended concurrently. Snapshots before it still hold the files, and time travel to them works
 * until snapshot expiry deletes them (docs/partitions.md).
 */
public interface ExpirePartitions extends TableUpdate<ExpirePartitionsResult> {

    /** Drops the partitions whose period ended at or before this time (epoch millis). */
    ExpirePartitions olderThan(long timestampMillis);

    /** Makes {@link #commit()} report what it would drop, changing nothing. */
    ExpirePartitions dryRun();

    /** What {@link #commit()} would drop now, as of the latest snapshot; changes nothing. */
    ExpirePartitionsResult apply();

    /**
     * Drops the expired partitions in one commit (none if there is nothing to drop).
     *
     * @throws io.weir.exceptions.ValidationException if the table has no time partitions, or
     *     neither {@code partition.expiration-time} nor {@link #olderThan} gives a cutoff
     */
    @Override
    ExpirePartitionsResult commit();
}
