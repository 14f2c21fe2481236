package io.weir.commit;

import io.weir.TableMetadata;

import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The newest state of each table that the {@link FileCommitLog}s of this JVM have read or
 * published, so that logs of one table share one state instead of each holding a copy of every live
 * file.
 *
 * <p>Why. A streaming job opens its table once per subtask: each writer, the committer and the
 * compactor hold a log of their own, in one JVM in local execution and several to a task manager on
 * a cluster. A state holds every live file of the table (tens of thousands at 10,000 file groups),
 * and each log read each commit from its file into new objects: as many copies of the table's files
 * as logs, and as many parses of each commit. With this registry the log that reads or publishes a
 * commit first offers its state, and the others take that state when they refresh to the same
 * commit.
 *
 * <p>A state is the same whoever built it: a commit names its files and their sequences, so the
 * state a committer publishes equals the one another log reads from the files (TableState's
 * equality; {@code SharedStatesTest}). A table is identified by its location and its first schema
 * version (which holds its creation time), and creating a table forgets the states shared for its
 * location, so a table created again at the same place is another table. States are held weakly: a
 * state no log holds any more is collected, and so is its entry. Only a log already open takes
 * shared states; opening a table reads its commit files, so damage there is found as before.
 */
final class SharedStates {
    /** Above this many tables, entries whose states were collected are dropped. */
    private static final int PRUNE_ABOVE = 64;

    private static final ConcurrentHashMap<Key, WeakReference<TableState>> NEWEST =
            new ConcurrentHashMap<>();

    /** Which table: its location and its first schema version. */
    record Key(String location, TableMetadata first) {}

    private SharedStates() {}

    /** The newest state of the table shared so far, or null. */
    static TableState newest(Key key) {
        WeakReference<TableState> ref = NEWEST.get(key);
        return ref == null ? null : ref.get();
    }

    /** Forgets the states of tables at {@code location}: a table is being created there. */
    static void forget(String location) {
        NEWEST.keySet().removeIf(key -> key.location().equals(location));
    }

    /**
     * Offers a state of the table; returns the state to hold for its commit: the one shared already
     * if it is of the same commit, else {@code state}, which is shared from now on if it is the
     * newest.
     */
    static TableState offer(Key key, TableState state) {
        WeakReference<TableState> kept =
                NEWEST.compute(
                        key,
                        (k, ref) -> {
                            TableState shared = ref == null ? null : ref.get();
                            return shared != null && shared.commitId() >= state.commitId()
                                    ? ref
                                    : new WeakReference<>(state);
                        });
        if (NEWEST.size() > PRUNE_ABOVE) {
            NEWEST.values().removeIf(ref -> ref.get() == null);
        }
        TableState shared = kept.get();
        return shared != null && shared.commitId() == state.commitId() ? shared : state;
    }
}
