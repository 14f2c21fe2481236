package io.weir.flink.sink;

import io.weir.DataFile;

import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fails the sink at planned points: the n-th event of a kind, counted over all subtasks and all
 * attempts of a job (in a registry of the test JVM, since tasks get their own copy of the hook), so
 * each planned failure fires exactly once however often the job restarts.
 */
final class FailureHook implements WeirSinkHook {
    private static final Map<String, Plan> PLANS = new ConcurrentHashMap<>();

    /** Where a failure is injected. */
    enum Point {
        /** In a writer, after a row went into its buffer. */
        WRITE,
        /** In a writer, after it flushed and handed out its files for a checkpoint. */
        PREPARE_COMMIT,
        /** In the committer, before a commit. */
        BEFORE_COMMIT,
        /** In the committer, after a commit landed, before Flink knows. */
        AFTER_COMMIT,
        /** A writer creating a log file (a flush): an I/O error ({@link InjectingFileIO}). */
        FLUSH,
        /** Writing a commit file, before it is written: the commit is lost. */
        COMMIT_LOST,
        /**
         * Writing a commit file, after it was written: the commit landed, the writer sees an error.
         */
        COMMIT_AMBIGUOUS,
        /** In-job compaction creating a base file: the round fails. */
        COMPACTION,
        /** In-job compaction's commit, after the commit file was written: the round fails. */
        COMPACTION_COMMIT,
        /** A source reader opening a data file to read. */
        SOURCE_READ
    }

    /** Thrown by an injected failure. */
    static final class InjectedFailure extends RuntimeException {
        InjectedFailure(String message) {
            super(message);
        }
    }

    /** The failures of one job run, and what happened. */
    static final class Plan {
        private final Map<Point, NavigableSet<Long>> at = new EnumMap<>(Point.class);
        private final Map<Point, AtomicLong> counts = new EnumMap<>(Point.class);
        private final List<String> fired = Collections.synchronizedList(new ArrayList<>());
        private final AtomicLong alreadyCommitted = new AtomicLong();

        Plan() {
            for (Point p : Point.values()) {
                at.put(p, new ConcurrentSkipListSet<>());
                counts.put(p, new AtomicLong());
            }
        }

        /** Fail at {@code count} random events of {@code point}, each in [from, to]. */
        Plan fail(Point point, int count, long from, long to, Random random) {
            while (at.get(point).size() < count) {
                at.get(point).add(from + (long) (random.nextDouble() * (to - from + 1)));
            }
            return this;
        }

        /**
         * Fail at {@code count} events of {@code point}, every {@code gap}-th from a random first
         * one in [1, gap]: events are counted over all attempts, so replays after a restore count
         * too and each failure fires once.
         */
        Plan every(Point point, int count, long gap, Random random) {
            long first = 1 + (long) (random.nextDouble() * gap);
            for (int i = 0; i < count; i++) {
                at.get(point).add(first + i * gap);
            }
            return this;
        }

        void hit(Point point, String what) {
            long n = counts.get(point).incrementAndGet();
            if (at.get(point).remove(n)) {
                String failure = point + " #" + n + " (" + what + ")";
                fired.add(failure);
                throw new InjectedFailure("Injected failure at " + failure);
            }
        }

        /** Failures planned that did not fire (the job ended first). */
        List<String> unfired() {
            List<String> left = new ArrayList<>();
            at.forEach((p, ns) -> ns.forEach(n -> left.add(p + " #" + n)));
            return left;
        }

        List<String> fired() {
            return List.copyOf(fired);
        }

        /** The failures that fired at one point. */
        long fired(Point point) {
            return fired.stream().filter(f -> f.startsWith(point + " #")).count();
        }

        long count(Point point) {
            return counts.get(point).get();
        }

        long alreadyCommitted() {
            return alreadyCommitted.get();
        }
    }

    private final String id;

    FailureHook(String id, Plan plan) {
        this.id = id;
        PLANS.put(id, plan);
    }

    private Plan plan() {
        return PLANS.get(id);
    }

    /** The plan of a hook created with this id (for {@link InjectingFileIO}, in the same JVM). */
    static Plan plan(String id) {
        return PLANS.get(id);
    }

    @Override
    public void afterWrite(int subtask, RowData row) {
        plan().hit(Point.WRITE, "writer " + subtask);
    }

    @Override
    public void afterPrepareCommit(int subtask, List<DataFile> files) {
        plan().hit(Point.PREPARE_COMMIT, "writer " + subtask + ", " + files.size() + " files");
    }

    @Override
    public void beforeCommit(WeirCommittable committable) {
        plan().hit(Point.BEFORE_COMMIT, committable.toString());
    }

    @Override
    public void afterCommit(WeirCommittable committable, boolean alreadyCommitted) {
        if (alreadyCommitted) {
            plan().alreadyCommitted.incrementAndGet();
        }
        plan().hit(Point.AFTER_COMMIT, committable.toString());
    }
}
