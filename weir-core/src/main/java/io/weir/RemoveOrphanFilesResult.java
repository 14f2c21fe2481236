package io.weir;

import java.util.List;

/**
 * What orphan removal found.
 *
 * @param orphanFiles the orphans (full paths), deleted unless {@code dryRun}
 * @param orphanBytes their total size
 * @param dryRun true if nothing was deleted
 * @param inFlightFiles unreferenced files old enough to be orphans that were kept because a live
 *     writer lease covers them: files of writes not committed yet (docs/table-services.md)
 */
public record RemoveOrphanFilesResult(
        List<String> orphanFiles, long orphanBytes, boolean dryRun, int inFlightFiles) {

    public RemoveOrphanFilesResult {
        orphanFiles = List.copyOf(orphanFiles);
    }
}
