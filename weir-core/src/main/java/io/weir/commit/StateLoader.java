package io.weir.commit;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.SnapshotExpiredException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Finds a table's latest commit and reads its states from checkpoints and commit files
 * (docs/format.md §6.6), honouring the expiry marker: a retained state is loaded without reading
 * any commit or checkpoint before the earliest retained commit, and an expired one is refused as
 * such.
 */
final class StateLoader {
    private static final Logger LOG = LoggerFactory.getLogger(StateLoader.class);
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
     * Where the search for the latest commit ended: {@code latest} is the greatest commit file
     * found (probing from the hint, or listing), {@code proven} the greatest commit id that the
     * LATEST hint, a checkpoint or the expiry marker shows was committed. {@code proven > latest}
     * means commit files were lost (deleted by hand): the table's latest state is unknown.
     */
    record Head(long latest, long proven, String proof) {
        boolean missing() {
            return proven > latest;
        }
    }

    /**
     * The latest commit id, from a known one (0 when loading). The LATEST hint may lag, so the
     * commits after it are probed; without a usable hint, the commit directory is listed. If the
     * known commit no longer exists, expiry removed it (or it was lost): the search starts afresh.
     * A commit that the hint, a checkpoint or the expiry marker proves existed but whose file is
     * missing is reported in the result, never silently skipped.
     */
    Head findLatest(long known) {
        MetadataPaths paths = files.paths();
        long latest = known;
        boolean nextExists = false;
        if (known > 0) {
            nextExists = files.exists(paths.commit(known + 1));
            if (!nextExists) {
                if (files.exists(paths.commit(known))) {
                    return new Head(known, known, null); // the common case: nothing new
                }
                latest = 0; // our commit expired since: we are far behind, start afresh
            }
        }
        long hint = files.readHint();
        boolean listed = false;
        // A hint naming the commit just found to exist is not probed again (one request less per
        // refresh after a commit, on an object store).
        if (hint > latest
                && ((nextExists && hint == known + 1) || files.exists(paths.commit(hint)))) {
            latest = hint;
        } else if (latest == 0 || (hint > latest && earliestRetained() > hint)) {
            // Also when the hint lags behind a newer commit and its own commit expired since.
            latest = files.maxListedId(paths.commitsDir(), Long.MAX_VALUE);
            listed = true;
        }
        while (files.exists(paths.commit(latest + 1))) {
            latest++;
        }
        // The hint is written only after its commit landed, and expiry never deletes the latest
        // commit: a hint beyond the commit files present proves that commit files were lost.
        if (hint > latest) {
            return new Head(
                    latest,
                    hint,
                    "the LATEST hint " + paths.latestHint() + " names commit " + hint);
        }
        if (listed) {
            long checkpoint = files.maxListedId(paths.checkpointsDir(), Long.MAX_VALUE);
            if (checkpoint > latest) {
                return new Head(
                        latest,
                        checkpoint,
                        "checkpoint " + paths.checkpoint(checkpoint) + " exists");
            }
            long earliest = earliestRetained();
            if (earliest > latest) {
                return new Head(
                        latest,
                        earliest,
                        "the expiry marker "
                                + paths.expiredMarker()
                                + " says commit "
                                + earliest
                                + " is retained");
            }
        }
        return new Head(latest, latest, null);
    }

    /** The error of a head whose commit files are missing, naming the first missing one. */
    CorruptFileException missing(Head head) {
        return new CorruptFileException(
                files.paths().commit(head.latest() + 1),
                "missing, but "
                        + head.proof()
                        + ", so commits up to "
                        + head.proven()
                        + " of table "
                        + files.location()
                        + " were made; the latest commit file present is "
                        + head.latest());
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
        TableState base = null;
        CorruptFileException damaged = null;
        if (guess > 0 && guess >= earliest) {
            try {
                base = files.readCheckpoint(guess);
            } catch (CorruptFileException e) {
                damaged = e;
                LOG.warn(
                        "Ignoring damaged checkpoint; loading from an older one: {}",
                        e.getMessage());
            }
        }
        if (base == null) {
            // Checkpointing is best effort, and the interval may have changed: look for one. A
            // damaged checkpoint is skipped: an older one and more commits give the same state.
            List<Long> ids = files.listedIds(files.paths().checkpointsDir());
            for (int i = ids.size() - 1; i >= 0 && base == null; i--) {
                long id = ids.get(i);
                if (id > commitId || id == guess && damaged != null) {
                    continue;
                }
                if (id < earliest || id == 0) {
                    break;
                }
                try {
                    base = files.readCheckpoint(id);
                } catch (CorruptFileException e) {
                    if (damaged == null) {
                        damaged = e;
                    }
                    LOG.warn(
                            "Ignoring damaged checkpoint; loading from an older one: {}",
                            e.getMessage());
                }
            }
        }
        if (base == null && earliest > 0) {
            if (damaged != null && damaged.path().equals(files.paths().checkpoint(earliest))) {
                throw damaged;
            }
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

    /**
     * Applies the commits after {@code base} up to {@code target}, copying the file set once. The
     * commits are read from {@code target} down, so that a {@link CommitKind#ROLLBACK} that
     * restores an earlier state ends the walk: the commits it abandoned (damaged or missing ones,
     * typically) are never read.
     */
    TableState replay(TableState base, long target) {
        if (base.commitId() == target) {
            return base;
        }
        Deque<Commit> pending = new ArrayDeque<>();
        TableState start = base;
        for (long id = target; id > base.commitId(); id--) {
            Commit commit = require(id, target);
            if (commit.baseCommitId() != id - 1) {
                // A rollback: its own checkpoint if it has one, else the state it restores.
                TableState at = readCheckpointOrNull(id);
                if (at != null) {
                    start = at;
                } else {
                    start = load(commit.baseCommitId());
                    pending.push(commit);
                }
                break;
            }
            pending.push(commit);
        }
        TableState.Builder builder = start.toBuilder();
        while (!pending.isEmpty()) {
            Commit commit = pending.pop();
            try {
                builder.apply(commit);
            } catch (IllegalArgumentException e) {
                throw new CorruptFileException(files.paths().commit(commit.id()), e.getMessage());
            }
        }
        return builder.build();
    }

    private TableState readCheckpointOrNull(long commitId) {
        try {
            return files.readCheckpoint(commitId);
        } catch (CorruptFileException e) {
            LOG.warn("Ignoring damaged checkpoint: {}", e.getMessage());
            return null;
        }
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
