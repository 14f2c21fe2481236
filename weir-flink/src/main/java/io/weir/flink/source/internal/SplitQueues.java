package io.weir.flink.source.internal;

import io.weir.FileGroupId;
import io.weir.flink.source.WeirSplit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The enumerator's unassigned splits. With affinity (streaming) every file group belongs to one
 * reader subtask, chosen by a stable hash, and its splits wait in that reader's queue in commit
 * order: the changes of a key then reach the same reader in the order they were committed. Without
 * affinity (bounded reads: one split per file group) any reader takes the next split.
 */
public final class SplitQueues {
    private final boolean affinity;
    private final int parallelism;
    private final Map<Integer, Deque<WeirSplit>> queues = new TreeMap<>();

    /** Splits waiting, for a metric gauge that reads it from another thread. */
    private volatile int size;

    public SplitQueues(boolean affinity, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("Invalid parallelism " + parallelism);
        }
        this.affinity = affinity;
        this.parallelism = parallelism;
    }

    /** Adds newly planned splits after those waiting. */
    public void addAll(List<WeirSplit> splits) {
        for (WeirSplit split : splits) {
            queue(owner(split)).addLast(split);
        }
        size += splits.size();
    }

    /**
     * Puts back splits a failed reader had been given, in their original order, ahead of those
     * waiting: they come from older commits.
     */
    public void addBack(List<WeirSplit> splits) {
        for (int i = splits.size() - 1; i >= 0; i--) {
            queue(owner(splits.get(i))).addFirst(splits.get(i));
        }
        size += splits.size();
    }

    /** The next split for a reader subtask, or null. */
    public WeirSplit poll(int subtask) {
        Deque<WeirSplit> queue = queues.get(affinity ? subtask : 0);
        WeirSplit split = queue == null ? null : queue.pollFirst();
        if (split != null) {
            size--;
        }
        return split;
    }

    /** Splits waiting; safe to read from any thread. */
    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return queues.values().stream().allMatch(Deque::isEmpty);
    }

    /** Every waiting split; the splits of one file group in commit order. */
    public List<WeirSplit> all() {
        List<WeirSplit> all = new ArrayList<>();
        queues.values().forEach(all::addAll);
        return all;
    }

    /** The reader subtask that reads a split's file group (0 for all without affinity). */
    int owner(WeirSplit split) {
        return affinity ? owner(split.fileGroup(), parallelism) : 0;
    }

    /**
     * Stable across JVMs and restarts (unlike {@code Object.hashCode} of some types): String's hash
     * is specified.
     */
    static int owner(FileGroupId group, int parallelism) {
        int hash = 31 * group.partition().values().toString().hashCode() + group.bucket();
        return Math.floorMod(hash, parallelism);
    }

    private Deque<WeirSplit> queue(int owner) {
        return queues.computeIfAbsent(owner, k -> new ArrayDeque<>());
    }
}
