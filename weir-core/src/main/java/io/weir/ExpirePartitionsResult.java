package io.weir;

import java.util.List;

/**
 * What a partition expiry did, or would do.
 *
 * @param commitId the CLEAN commit that dropped the partitions, or -1 if none was made (nothing
 *     expired, or a dry run)
 * @param cutoffMillis partitions whose period ended at or before this time expired
 * @param partitions the partitions dropped (or to drop), in order
 * @param files the files removed from the table (they stay in older snapshots)
 * @param records the records in those files
 * @param dryRun true if nothing was changed
 */
public record ExpirePartitionsResult(
        long commitId,
        long cutoffMillis,
        List<Partition> partitions,
        int files,
        long records,
        boolean dryRun) {

    public ExpirePartitionsResult {
        partitions = List.copyOf(partitions);
    }
}
