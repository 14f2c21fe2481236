package io.weir.commit;

import io.weir.Commit;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.SnapshotExpiredException;

import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Finds a table's latest commit and reads its states from checkpoints and commit files
 * (docs/format.md §6.6), honouring the expiry marker: a retained state is loaded without reading
 * any commit or checkpoint before the earliest retained commit, and an expired one is refused as
 * such.
 */
final class StateLoader {
    private final MetadataFiles files;
    private final LongSupplier createdMillis;
    private final IntSupplier checkpointInterval;
    // The expiry marker as last read: it only grows, so a cached value is a lower bound.
    private volatile long earliestRetained;

    /**
     * @param createdMillis the creation time of the table (the timestamp of commit 0)
     * @param checkpointInterval the current {@code metadata.checkpoint-interval}
     */
    StateLoader(MetadataFiles files, LongSupplier createdMillis, IntSupplier checkpointInterval) {
        this.files = files;
        this.createdMillis = createdMillis;
        this.checkpointInterval = checkpointInterval;
    }

    /** The earliest retained commit, read from the marker now (0 if nothing expired). */
    long earliestRetained() {
        long known = Math.max(files.readEarliestRetained(), earliestRetained);
        earliestRetained = known;
        return known;
    }

    /** The earliest retained commit as last read, without I/O: a lower bound. */
    long knownEarliestRetained() {
        return earliestRetained;
    }

    void retained(long commitId) {
        earliestRetained = Math.max(earliestRetained, commitId);
    }

    TableState empty() {
        return TableState.empty(0, createdMillis.getAsLong());
    }

    /**
     * The latest commit id, from a known one (0 when loading). The LATEST hint may lag, so the
     * commits after it are probed; without a usable hint, the commit directory is listed. If the
     * known commit no longer exists, expiry removed it: the search starts afresh.
     */
    long findLatest(long known) {
        MetadataPaths paths = files.paths();
        long latest = known;
        if (known > 0 && !files.exists(paths.commit(known + 1))) {
            if (files.exists(paths.commit(known))) {
                return known; // the common case: nothing new
            }
            latest = 0; // our commit expired since: we are far behind, start afresh
        }
        long hint = files.readHint();
        if (hint > latest && files.exists(paths.commit(hint))) {
            latest = hint;
        } else if (latest == 0) {
            latest = files.maxListedId(paths.commitsDir(), Long.MAX_VALUE);
        }
        while (files.exists(paths.commit(latest + 1))) {
            latest++;
        }
        return latest;
    }

    /**
     * The state as of a retained commit: the latest checkpoint at or before it (and not before the
     * earliest retained commit, whose commits may be gone), plus the commits after.
     */
    TableState load(long commitId) {
        long earliest = earliestRetained();
        try {
            return load(commitId, earliest);
        } catch (SnapshotExpiredException | CorruptFileException e) {
            // An expiry that ran meanwhile may have deleted what we were reading: its checkpoint
            // is there now.
            long now = earliestRetained();
            if (now == earliest) {
                throw e;
            }
            return load(commitId, now);
        }
    }

    private TableState load(long commitId, long earliest) {
        if (commitId < earliest) {
            throw expired(commitId, earliest);
        }
        if (commitId == 0) {
            return empty();
        }
        int interval = checkpointInterval.getAsInt();
        long guess = commitId / interval * interval;
        TableState base = guess > 0 && guess >= earliest ? files.readCheckpoint(guess) : null;
        if (base == null) {
            // Checkpointing is best effort, and the interval may have changed: look for one.
            long listed = files.maxListedId(files.paths().checkpointsDir(), commitId);
            base = listed > 0 && listed >= earliest ? files.readCheckpoint(listed) : null;
        }
        if (base == null && earliest > 0) {
            throw new CorruptFileException(
                    files.paths().checkpoint(earliest),
                    "missing, but the commits before "
                            + earliest
                            + " of table "
                            + files.location()
                            + " have expired, so loading must start from this checkpoint");
        }
        if (base == null) {
            base = empty();
        }
        return replay(base, commitId);
    }

    /** Applies the commits after {@code base} up to {@code target}, copying the file set once. */
    TableState replay(TableState base, long target) {
        if (base.commitId() == target) {
            return base;
        }
        TableState.Builder builder = base.toBuilder();
        for (long id = base.commitId() + 1; id <= target; id++) {
            Commit commit = require(id, target);
            try {
                builder.apply(commit);
            } catch (IllegalArgumentException e) {
                throw new CorruptFileException(files.paths().commit(id), e.getMessage());
            }
        }
        return builder.build();
    }

    /**
     * Reads a commit that must exist because commit {@code later} exists, unless an expiry deleted
     * it (then the error says so).
     */
    Commit require(long commitId, long later) {
        Commit commit = files.readCommit(commitId);
        if (commit == null) {
            long earliest = earliestRetained();
            if (commitId < earliest) {
                throw expired(commitId, earliest);
            }
            throw new CorruptFileException(
                    files.paths().commit(commitId),
                    "missing, but table "
                            + files.location()
                            + " has commit "
                            + later
                            + " and every commit before it must exist");
        }
        return commit;
    }

    SnapshotExpiredException expired(long commitId, long earliest) {
        return new SnapshotExpiredException(
                "Cannot read commit "
                        + commitId
                        + " of table "
                        + files.location()
                        + ": it has expired (the earliest retained commit is "
                        + earliest
                        + ")",
                commitId,
                earliest);
    }
}
