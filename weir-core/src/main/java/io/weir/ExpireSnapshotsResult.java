package io.weir;

import java.util.List;

/**
 * What a snapshot expiry did, or would do in a dry run.
 *
 * @param previousEarliestRetained the earliest retained commit before (0: nothing had expired)
 * @param earliestRetained the earliest retained commit after; snapshots before it are expired
 * @param filesKeptFrom the oldest snapshot whose files were kept: {@code earliestRetained}, or less
 *     if a reader leased an older snapshot while the expiry ran (its files go in a later run)
 * @param deletedDataFiles data files deleted (full paths), live in no retained snapshot; after an
 *     interrupted run this includes files the earlier run deleted already
 * @param deletedMetadataFiles commit, checkpoint and ended lease files deleted (full paths)
 * @param dryRun true if nothing was changed
 */
public record ExpireSnapshotsResult(
        long previousEarliestRetained,
        long earliestRetained,
        long filesKeptFrom,
        List<String> deletedDataFiles,
        List<String> deletedMetadataFiles,
        boolean dryRun) {

    public ExpireSnapshotsResult {
        deletedDataFiles = List.copyOf(deletedDataFiles);
        deletedMetadataFiles = List.copyOf(deletedMetadataFiles);
    }

    /** How many snapshots this run expired. */
    public long expiredSnapshots() {
        return earliestRetained - previousEarliestRetained;
    }
}
