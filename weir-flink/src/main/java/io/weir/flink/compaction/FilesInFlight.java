package io.weir.flink.compaction;

import io.weir.Compaction;
import io.weir.DataFile;
import io.weir.ScanTask;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The files each compaction lane of a job is rewriting now. A lane plans around the files of the
 * other ({@link Compaction#around}), so the two never rewrite the same file and both commits land;
 * planning and taking the planned files happen under one lock, so neither lane plans on files the
 * other has planned but not yet taken.
 */
final class FilesInFlight {

    /** The compaction lanes of a job. */
    enum Lane {
        /** The rounds of {@link TableMaintainer}: due groups, whole or incremental. */
        ROUNDS,
        /**
         * While a round rewrites, merges of the newest runs of every group (after the round's
         * inputs in the groups it rewrites), so that writers need not wait for a long round ({@code
         * compaction.stall-runs}).
         */
        NEWER_RUNS
    }

    // Replaced, never changed, under the lock; read without it by holds(), which the job's task
    // thread calls and which must not wait for a plan's I/O.
    private volatile Map<Lane, List<ScanTask>> held = Map.of();

    /**
     * Plans {@code compaction} around the other lane's files and takes what {@code select} keeps of
     * the plan. A {@link Lane#NEWER_RUNS} plan merges only newest runs ({@link
     * Compaction#newestRunsOnly}), and is empty unless a round rewrites now.
     */
    synchronized List<ScanTask> planAndTake(
            Lane lane, Compaction compaction, UnaryOperator<List<ScanTask>> select) {
        Lane other = lane == Lane.ROUNDS ? Lane.NEWER_RUNS : Lane.ROUNDS;
        List<ScanTask> theirs = held.getOrDefault(other, List.of());
        if (lane == Lane.NEWER_RUNS) {
            if (theirs.isEmpty()) {
                return List.of();
            }
            // Short merges only: the bases are the rounds' work.
            compaction.newestRunsOnly();
        }
        Set<String> paths = new HashSet<>();
        for (ScanTask task : theirs) {
            for (DataFile f : task.files()) {
                paths.add(f.path());
            }
        }
        List<ScanTask> planned = compaction.around(paths).plan();
        List<ScanTask> tasks = select.apply(planned);
        Map<Lane, List<ScanTask>> next = new EnumMap<>(Lane.class);
        next.putAll(held);
        next.put(lane, List.copyOf(tasks));
        held = next;
        return tasks;
    }

    /** Whether the lane holds files: planned, and not yet committed or given up. */
    boolean holds(Lane lane) {
        return !held.getOrDefault(lane, List.of()).isEmpty();
    }

    /** After the lane's commit landed or failed. */
    synchronized void release(Lane lane) {
        Map<Lane, List<ScanTask>> next = new EnumMap<>(Lane.class);
        next.putAll(held);
        next.remove(lane);
        held = next;
    }
}
