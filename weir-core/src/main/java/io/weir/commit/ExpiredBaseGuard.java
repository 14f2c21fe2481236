package io.weir.commit;

import io.weir.Commit;
import io.weir.exceptions.CommitStateUnknownException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * The one case where a created commit file is no commit of the table (docs/format.md §6.5, step 6):
 * the optimistic base was never read afresh, and expiry freed its successor's id meanwhile. Only a
 * commit on such a base pays for the check.
 */
final class ExpiredBaseGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ExpiredBaseGuard.class);

    private final FileCommitLog log;

    ExpiredBaseGuard(FileCommitLog log) {
        this.log = log;
    }

    /**
     * Whether the commit file just created on a state not read afresh fell among expired commits:
     * the known commit {@code N} and {@code N + 1} expired while others committed, so the id was
     * free again. Expiry records the earliest retained commit before it deletes any commit file
     * (docs/format.md §6.7), so one read of that marker tells. Such a file is no commit of the
     * table; it is deleted, and the commit tried again on the latest state.
     */
    boolean landedBelowExpiry(Commit commit) {
        long earliest;
        try {
            earliest = log.earliestRetainedCommit();
        } catch (RuntimeException e) {
            // The marker cannot be read now. The base commit's file tells as well: expiry deletes
            // commit files oldest first, so N + 1 was free only if N is gone too.
            long base = commit.id() - 1;
            if (base == 0 || commitFileExists(base, e)) {
                return false;
            }
            earliest = Long.MAX_VALUE;
        }
        if (earliest <= commit.id()) {
            return false;
        }
        String path = log.files().paths().commit(commit.id());
        LOG.warn(
                "Commit file {} of table {} was created on a state that has expired (the earliest"
                        + " retained commit is {}); deleting it and committing on the latest state",
                path,
                log.location(),
                earliest);
        try {
            log.files().io().delete(path);
        } catch (IOException | RuntimeException e) {
            // Below the earliest retained commit, no reader takes it for the table's; expiry
            // deletes it with the other expired commits.
            LOG.warn("Cannot delete {}; snapshot expiry will", path, e);
        }
        return true;
    }

    private boolean commitFileExists(long id, RuntimeException markerError) {
        String path = log.files().paths().commit(id);
        try {
            return log.files().io().exists(path);
        } catch (IOException | RuntimeException e) {
            e.addSuppressed(markerError);
            throw new CommitStateUnknownException(
                    String.format(
                            "Cannot tell whether commit %d of table %s counts: its file was"
                                    + " created on a state not read afresh, and neither the expiry"
                                    + " marker nor %s can be read to check that the state had not"
                                    + " expired. Reload the table before retrying, and do not"
                                    + " delete the commit's files",
                            id + 1, log.location(), path),
                    e);
        }
    }
}
