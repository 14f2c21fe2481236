package io.weir.write;

import io.weir.Compaction;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.Snapshot;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which bucket an append-only writer appends a partition's rows to. A writer has candidate buckets
 * (one by default; the Flink sink gives subtask {@code i} of {@code p} the buckets {@code i, i + p,
 * ...}); for each partition it picks, once, the candidate whose file group holds the most bytes of
 * small files (logs and undersized base files) that do not yet fill {@code target-file-size}, else
 * the first. So a partition's trickle fills one group until compaction can pack it into a full file
 * before the next group gets any, and compaction leaves fewer, fuller files. The sizes come from
 * the snapshot the writer was created on: no I/O per row or commit.
 */
public final class AppendBuckets {
    private final int[] candidates;
    private final Map<Partition, long[]> smallBytes;
    private final long target;

    private AppendBuckets(int[] candidates, Map<Partition, long[]> smallBytes, long target) {
        this.candidates = candidates.clone();
        this.smallBytes = smallBytes;
        this.target = target;
    }

    /** Always this bucket. */
    public static AppendBuckets fixed(int bucket) {
        return new AppendBuckets(new int[] {bucket}, Map.of(), Long.MAX_VALUE);
    }

    /** The first of {@code candidates} by default, a fuller one where {@code snapshot} has it. */
    public static AppendBuckets of(int[] candidates, Snapshot snapshot, long targetFileSize) {
        long undersized = Compaction.undersizedBelow(targetFileSize);
        Map<Partition, long[]> bytes = new HashMap<>();
        for (Map.Entry<FileGroupId, List<DataFile>> group : snapshot.fileGroups().entrySet()) {
            int index = indexOf(candidates, group.getKey().bucket());
            if (index < 0) {
                continue;
            }
            long small = 0;
            for (DataFile f : group.getValue()) {
                if (f.kind() == FileKind.LOG || f.sizeInBytes() < undersized) {
                    small += f.sizeInBytes();
                }
            }
            bytes.computeIfAbsent(group.getKey().partition(), p -> new long[candidates.length])[
                            index] =
                    small;
        }
        return new AppendBuckets(candidates, bytes, targetFileSize);
    }

    /** Whether every partition goes to the same bucket. */
    public boolean isFixed() {
        return candidates.length == 1;
    }

    /** The first candidate. */
    public int first() {
        return candidates[0];
    }

    /** The bucket for a partition's rows (called once per partition and writer). */
    public int choose(Partition partition) {
        long[] bytes = smallBytes.get(partition);
        if (bytes == null) {
            return candidates[0];
        }
        int best = 0;
        for (int i = 1; i < candidates.length; i++) {
            boolean fits = bytes[i] < target;
            if (fits && (bytes[best] >= target || bytes[i] > bytes[best])) {
                best = i;
            }
        }
        return candidates[best];
    }

    private static int indexOf(int[] values, int value) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                return i;
            }
        }
        return -1;
    }
}
