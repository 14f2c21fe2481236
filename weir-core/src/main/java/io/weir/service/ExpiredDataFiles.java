package io.weir.service;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.commit.CommitLog;
import io.weir.commit.TableState;
import io.weir.exceptions.WeirException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the data files that no snapshot from {@code keptFrom} on needs, from the commit files that
 * still exist (docs/table-services.md, "Which files expire").
 *
 * <p>A file live in an expired snapshot but in no retained one was removed by some commit {@code c
 * <= keptFrom}. It is needed by a retained snapshot iff it is live in the latest one or some commit
 * after {@code keptFrom} removes it (a file live at {@code keptFrom} is still live or was removed
 * later; a file added later is live or removed later). Commits at or before the oldest commit file
 * that still exists were dealt with by the run that deleted the commits before it.
 */
final class ExpiredDataFiles {
    private ExpiredDataFiles() {}

    /**
     * Relative paths of the data files to delete.
     *
     * @param latest the latest state, read before the commit files
     */
    static List<String> find(CommitLog log, TableState latest, long keptFrom) {
        long oldest = oldestOfChain(log.commitFileIds(), latest.commitId());
        if (oldest >= keptFrom) {
            return List.of();
        }
        Set<String> candidates = new LinkedHashSet<>();
        Set<String> needed = new HashSet<>();
        for (DataFile f : latest.files()) {
            needed.add(f.path());
        }
        for (long id = oldest + 1; id <= latest.commitId(); id++) {
            Commit commit = log.commitIfPresent(id);
            if (commit == null) {
                throw new WeirException(
                        String.format(
                                "Cannot expire snapshots of table %s: commit file %d disappeared"
                                        + " while reading (is another expiry running?); nothing"
                                        + " was deleted",
                                log.location(), id));
            }
            (id <= keptFrom ? candidates : needed).addAll(commit.removed());
        }
        List<String> expired = new ArrayList<>();
        for (String path : candidates) {
            if (!needed.contains(path)) {
                expired.add(path);
            }
        }
        return expired;
    }

    /**
     * The oldest commit of the unbroken run of commit files that ends at {@code latest}; {@code
     * latest + 1} if even that one is missing.
     */
    static long oldestOfChain(List<Long> ids, long latest) {
        Set<Long> present = new HashSet<>(ids);
        long oldest = latest + 1;
        while (oldest > 1 && present.contains(oldest - 1)) {
            oldest--;
        }
        return oldest;
    }
}
