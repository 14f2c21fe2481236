package io.weir.flink.source.internal;

import io.weir.data.BinaryRow;

import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;

import java.util.Arrays;
import java.util.Set;

/**
 * Rows of one split, copied from the reader's reused row into one fresh byte array. The emitted
 * Flink rows point into that array, which is never written again, so downstream operators may keep
 * them (also with object reuse).
 */
final class RowBatch implements RecordsWithSplitIds<BinaryRowData> {
    private final String splitId;
    private final int arity;
    private Set<String> finished = Set.of();
    private byte[] bytes;
    private int[] offsets;
    private int[] sizes;
    private int count;
    private int used;
    private MemorySegment segment;
    private boolean splitReturned;
    private int next;

    RowBatch(String splitId, int arity, int initialBytes) {
        this.splitId = splitId;
        this.arity = arity;
        this.bytes = new byte[initialBytes];
        this.offsets = new int[64];
        this.sizes = new int[64];
    }

    /** Copies a row in; the batch grows as needed. */
    void add(BinaryRow row) {
        int size = row.sizeInBytes();
        if (used + size > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(used + size, bytes.length * 2));
        }
        if (count == offsets.length) {
            offsets = Arrays.copyOf(offsets, count * 2);
            sizes = Arrays.copyOf(sizes, count * 2);
        }
        row.copyTo(bytes, used);
        offsets[count] = used;
        sizes[count] = size;
        used += size;
        count++;
    }

    int count() {
        return count;
    }

    int sizeInBytes() {
        return used;
    }

    /** Says that the split is done after these rows. */
    RowBatch markFinished() {
        finished = Set.of(splitId);
        return this;
    }

    @Override
    public String nextSplit() {
        if (splitReturned || count == 0) {
            return null;
        }
        splitReturned = true;
        segment = MemorySegmentFactory.wrap(bytes);
        return splitId;
    }

    @Override
    public BinaryRowData nextRecordFromSplit() {
        if (next == count) {
            return null;
        }
        BinaryRowData row = new BinaryRowData(arity);
        row.pointTo(segment, offsets[next], sizes[next]);
        next++;
        return row;
    }

    @Override
    public Set<String> finishedSplits() {
        return finished;
    }
}
