package io.weir.commit;

import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;

/**
 * Time travel by timestamp (docs/format.md §6.6): a binary search over the retained commit files,
 * apart from {@link FileCommitLog}'s tracking of the latest state, which it only starts from.
 */
final class CommitTimeSearch {
    private final StateLoader loader;
    private final String location;

    CommitTimeSearch(StateLoader loader, String location) {
        this.loader = loader;
        this.location = location;
    }

    /**
     * The greatest commit made at or before {@code timestampMillis}, 0 if the table had none yet.
     *
     * @param cur the latest state
     * @param created when the table was created (schema 0's {@code created-millis})
     */
    long commitIdAsOf(TableState cur, long timestampMillis, long created) {
        if (cur.commitId() > 0 && cur.timestampMillis() <= timestampMillis) {
            return cur.commitId();
        }
        // Commit timestamps never decrease (see CommitResolver), so binary search works.
        long earliest = loader.earliestRetained();
        long lo = Math.max(1, earliest);
        long hi = cur.commitId();
        long found = 0;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            if (loader.require(mid, cur.commitId()).timestampMillis() <= timestampMillis) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found == 0 && earliest > 0) {
            throw new SnapshotExpiredException(
                    "Cannot find a retained commit of table "
                            + location
                            + " as of "
                            + timestampMillis
                            + ": the table's state then has expired; the earliest retained commit "
                            + earliest
                            + " was made at "
                            + loader.require(earliest, cur.commitId()).timestampMillis(),
                    -1,
                    earliest);
        }
        if (found == 0 && timestampMillis < created) {
            throw new ValidationException(
                    "Cannot find a commit of table "
                            + location
                            + " as of "
                            + timestampMillis
                            + ": the table was created at "
                            + created);
        }
        return found;
    }
}
