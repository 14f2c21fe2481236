package io.weir.flink.sink.internal;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.Snapshot;
import io.weir.Table;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The table's health as of the committer's last commit, as gauges to alert on: log files waiting
 * for compaction (in all and in the worst file group), the age of the oldest of them, and the age
 * of the last successful commit.
 *
 * <p>{@link #update} runs on the committer's thread once per commit (per checkpoint, never per
 * record): it counts the live log files of the snapshot after the commit and learns when each was
 * committed from the commits it has not read yet, newest first, stopping as soon as every live log
 * is placed (usually the commit just made, which is in memory). Reporters read the published
 * figures from any thread; ages are computed when read, so they keep growing while nothing is
 * committed or compacted.
 */
public final class TableHealth {
    /** Figures of one update, published whole. */
    private record Figures(long logFiles, long maxLogFiles, long oldestLogMillis) {}

    private final LongSupplier clock;
    private volatile Figures figures = new Figures(0, 0, -1);
    private volatile long lastCommitMillis;

    // Committer thread only: when each live log file was committed, by path.
    private final Map<String, Long> committedAt = new HashMap<>();

    /**
     * Live log files that a compaction wrote (the merged newest runs of an incremental compaction,
     * docs/table-services.md): read like any log, but their rows wait for no compaction.
     */
    private final Set<String> compacted = new HashSet<>();

    public TableHealth(LongSupplier clock) {
        this.clock = clock;
        this.lastCommitMillis = clock.getAsLong();
    }

    /** Registers the gauges in {@code group}. */
    public void register(MetricGroup group) {
        group.gauge("logFiles", (Gauge<Long>) () -> figures.logFiles());
        group.gauge("maxLogFilesPerFileGroup", (Gauge<Long>) () -> figures.maxLogFiles());
        group.gauge("oldestLogAgeMs", (Gauge<Long>) this::oldestLogAgeMillis);
        group.gauge("lastCommitAgeMs", (Gauge<Long>) this::lastCommitAgeMillis);
    }

    /** Log files of the last update's snapshot. */
    public long logFiles() {
        return figures.logFiles();
    }

    /** Log files of the file group with the most. */
    public long maxLogFilesPerFileGroup() {
        return figures.maxLogFiles();
    }

    /** Since the oldest live log file was committed; 0 when no log file waits. */
    public long oldestLogAgeMillis() {
        long oldest = figures.oldestLogMillis();
        return oldest < 0 ? 0 : Math.max(0, clock.getAsLong() - oldest);
    }

    /**
     * Since the last commit this committer made or found made (after a restore), by the commit's
     * timestamp; since the committer started if there was none.
     */
    public long lastCommitAgeMillis() {
        return Math.max(0, clock.getAsLong() - lastCommitMillis);
    }

    /**
     * After {@code ours} was committed to {@code table} (or found committed already): recounts the
     * log files of the table's current snapshot (which includes {@code ours}).
     */
    public void update(Table table, Commit ours) {
        lastCommitMillis = ours.timestampMillis();
        Snapshot snapshot = table.currentSnapshot();
        Set<String> live = new HashSet<>();
        long max = 0;
        for (Map.Entry<FileGroupId, List<DataFile>> group : snapshot.fileGroups().entrySet()) {
            long logs = 0;
            for (DataFile f : group.getValue()) {
                if (f.kind() == FileKind.LOG) {
                    live.add(f.path());
                    logs++;
                }
            }
            max = Math.max(max, logs);
        }
        committedAt.keySet().retainAll(live);
        compacted.retainAll(live);
        Set<String> unknown = new HashSet<>(live);
        unknown.removeAll(committedAt.keySet());
        if (snapshot.id() == ours.id()) {
            // Usually the only files not seen before are our commit's: then no request.
            note(ours, unknown);
        }
        if (!unknown.isEmpty()) {
            long lowest = Math.max(1, table.earliestRetainedCommit());
            for (long id = snapshot.id(); id >= lowest && !unknown.isEmpty(); id--) {
                note(id == ours.id() ? ours : table.commit(id), unknown);
            }
            if (!unknown.isEmpty()) {
                // Committed before the earliest retained commit: at least as old as that one.
                long bound = table.commit(lowest).timestampMillis();
                unknown.forEach(path -> committedAt.put(path, bound));
            }
        }
        long oldest =
                committedAt.entrySet().stream()
                        .filter(e -> !compacted.contains(e.getKey()))
                        .mapToLong(Map.Entry::getValue)
                        .min()
                        .orElse(-1);
        figures = new Figures(live.size() - compacted.size(), max, oldest);
    }

    /** Records when {@code commit} added those of its files that are in {@code unknown}. */
    private void note(Commit commit, Set<String> unknown) {
        for (DataFile f : commit.added()) {
            if (unknown.remove(f.path())) {
                committedAt.put(f.path(), commit.timestampMillis());
                if (commit.kind() == CommitKind.COMPACT) {
                    compacted.add(f.path());
                }
            }
        }
    }
}
