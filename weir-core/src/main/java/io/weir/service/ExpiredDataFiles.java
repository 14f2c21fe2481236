package io.weir.service;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.commit.CommitLog;
import io.weir.commit.TableState;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.WeirException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

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
        Chain chain = Chain.read(log, latest.commitId());
        if (chain.oldest >= keptFrom) {
            return List.of();
        }
        Set<String> candidates = new LinkedHashSet<>();
        Set<String> needed = new HashSet<>();
        for (DataFile f : latest.files()) {
            needed.add(f.path());
        }
        for (Map.Entry<Long, Commit> e : chain.commits.entrySet()) {
            if (e.getKey() > chain.oldest) {
                (e.getKey() <= keptFrom ? candidates : needed).addAll(e.getValue().removed());
            }
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
     * The commit files of the unbroken run that ends at the latest commit, read from the latest
     * down. The run bridges commits that a rollback abandoned ({@code (base, rollback)}): those may
     * be missing or damaged (the rollback repaired that) and are skipped; any other missing or
     * damaged commit in the run is an error.
     */
    static final class Chain {
        final SortedMap<Long, Commit> commits = new TreeMap<>();
        final List<long[]> abandoned = new ArrayList<>();
        long oldest;

        static Chain read(CommitLog log, long latest) {
            Chain chain = new Chain();
            Set<Long> present = new HashSet<>(log.commitFileIds());
            long id = latest;
            chain.oldest = latest + 1;
            for (; id >= 1; id--) {
                boolean abandoned = chain.isAbandoned(id);
                if (!present.contains(id)) {
                    if (abandoned) {
                        continue;
                    }
                    break;
                }
                Commit commit;
                try {
                    commit = log.commitIfPresent(id);
                } catch (CorruptFileException e) {
                    if (abandoned) {
                        continue;
                    }
                    throw e;
                }
                if (commit == null) {
                    if (abandoned) {
                        continue;
                    }
                    throw new WeirException(
                            String.format(
                                    "Cannot expire snapshots of table %s: commit file %d"
                                            + " disappeared while reading (is another expiry"
                                            + " running?); nothing was deleted",
                                    log.location(), id));
                }
                chain.commits.put(id, commit);
                chain.oldest = id;
                if (commit.baseCommitId() != id - 1) {
                    chain.abandoned.add(new long[] {commit.baseCommitId(), id});
                }
            }
            return chain;
        }

        /** Whether a rollback after {@code id} restored a state before it. */
        boolean isAbandoned(long id) {
            for (long[] range : abandoned) {
                if (id > range[0] && id < range[1]) {
                    return true;
                }
            }
            return false;
        }
    }
}
