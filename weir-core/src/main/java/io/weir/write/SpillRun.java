package io.weir.write;

import java.util.Arrays;

/**
 * A sorted run spilled to a local temporary file: its rows in write order, in the log file format
 * (checksummed blocks, LZ4), and, kept in memory, its groups: {@code groupCount} extents of {@code
 * counts[i]} consecutive rows of group {@code groups[i]} ({@code partitionId << 32 | bucket}). The
 * file stores no group, so the memory of a run grows with its groups, never with its rows.
 */
final class SpillRun {
    final String path;
    private long[] groups = new long[8];
    private long[] counts = new long[8];
    private int groupCount;
    private long records;
    private long sizeInBytes;

    SpillRun(String path) {
        this.path = path;
    }

    /** Counts one more row, of {@code group}; rows come in write order. */
    void add(long group) {
        if (groupCount == 0 || groups[groupCount - 1] != group) {
            if (groupCount == groups.length) {
                groups = Arrays.copyOf(groups, 2 * groupCount);
                counts = Arrays.copyOf(counts, 2 * groupCount);
            }
            groups[groupCount++] = group;
        }
        counts[groupCount - 1]++;
        records++;
    }

    void finish(long fileSize) {
        this.sizeInBytes = fileSize;
    }

    int groupCount() {
        return groupCount;
    }

    long group(int i) {
        return groups[i];
    }

    long count(int i) {
        return counts[i];
    }

    long records() {
        return records;
    }

    long sizeInBytes() {
        return sizeInBytes;
    }

    @Override
    public String toString() {
        return "SpillRun{" + path + ", " + records + " rows in " + groupCount + " groups}";
    }
}
