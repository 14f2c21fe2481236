package io.weir;

import java.util.List;

/**
 * What orphan removal found.
 *
 * @param orphanFiles the orphans (full paths), deleted unless {@code dryRun}
 * @param orphanBytes their total size
 * @param dryRun true if nothing was deleted
 */
public record RemoveOrphanFilesResult(List<String> orphanFiles, long orphanBytes, boolean dryRun) {

    public RemoveOrphanFilesResult {
        orphanFiles = List.copyOf(orphanFiles);
    }
}
