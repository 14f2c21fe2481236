package io.weir.flink.source.internal;

import io.weir.flink.source.WeirSplit;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Which is the oldest snapshot a source may still read, or restart from: the enumerator's lease
 * goes on it. Lives on the coordinator thread. Pieces:
 *
 * <ul>
 *   <li>what the enumerator holds: its position (discovery continues after it) and its unassigned
 *       splits; given by the caller;
 *   <li>what each reader holds: as it last reported ({@link ReaderHoldsEvent}), plus the splits
 *       assigned to it since that it had not received yet; a reader that has not reported since it
 *       (re)registered may hold the splits of the checkpoint it restored from;
 *   <li>what a restore needs: the floor recorded with the last completed checkpoint.
 * </ul>
 */
final class ReadFloors {
    /** Nothing needed. */
    static final long NONE = Long.MAX_VALUE;

    private final Map<Integer, Reader> readers = new HashMap<>();
    private final NavigableMap<Long, Long> checkpoints = new TreeMap<>();
    private long completed;

    /**
     * @param restored the floor of the checkpoint the source restored from, or {@link #NONE}
     */
    ReadFloors(long restored) {
        this.completed = restored;
    }

    /** The oldest commit a split reads: its snapshot, or the start of its change range. */
    static long of(WeirSplit split) {
        return split.isSnapshot()
                ? split.scanTask().snapshotId()
                : split.changeTask().fromSnapshotId();
    }

    /**
     * A reader (re)registered or failed: until it reports, it may hold what the last completed
     * checkpoint gave it.
     */
    void readerReset(int subtask) {
        readers.put(subtask, new Reader(completed));
    }

    void assigned(int subtask, WeirSplit split) {
        Reader reader = readers.computeIfAbsent(subtask, s -> new Reader(completed));
        reader.assigned++;
        reader.unreceived.addLast(new long[] {reader.assigned, of(split)});
    }

    void reported(int subtask, ReaderHoldsEvent event) {
        Reader reader = readers.computeIfAbsent(subtask, s -> new Reader(completed));
        while (!reader.unreceived.isEmpty()
                && reader.unreceived.peekFirst()[0] <= event.received()) {
            reader.unreceived.pollFirst();
        }
        reader.reported = event.oldestCommit();
    }

    /** The oldest commit the readers hold, or {@link #NONE}. */
    long readers() {
        long floor = NONE;
        for (Reader reader : readers.values()) {
            floor = Math.min(floor, reader.reported);
            for (long[] assignment : reader.unreceived) {
                floor = Math.min(floor, assignment[1]);
            }
        }
        return floor;
    }

    /** Records the floor of a checkpoint being taken. */
    void checkpoint(long checkpointId, long floor) {
        checkpoints.put(checkpointId, floor);
    }

    /** A checkpoint completed: a restore would start from it. */
    void checkpointComplete(long checkpointId) {
        Long floor = checkpoints.get(checkpointId);
        if (floor != null) {
            completed = floor;
        }
        checkpoints.headMap(checkpointId, true).clear();
    }

    /** The floor of the last completed checkpoint, or {@link #NONE}. */
    long completed() {
        return completed;
    }

    private static final class Reader {
        long reported;
        long assigned;
        final Deque<long[]> unreceived = new ArrayDeque<>();

        Reader(long reported) {
            this.reported = reported;
        }
    }
}
