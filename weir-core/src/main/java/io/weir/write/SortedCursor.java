package io.weir.write;

import io.weir.data.BinaryRow;

/**
 * Walks a {@link SortBuffer}'s rows in sorted order. Usage: {@code while (cursor.next()) {...}}.
 * The accessors describe the current row; the {@link #row()} view and the raw bytes are the
 * buffer's own memory, valid until the next {@link #next()}, append or clear.
 */
public final class SortedCursor implements SortedRows {
    private static final int AHEAD = 16;
    private static final int CACHE_LINE = 64;

    private final SortIndex index;
    private final BinaryRow row;
    private byte[][] dataPages;

    /** The order of the rows when the index made a packed one; null: the index's own order. */
    private PackedOrder packed;

    private int next;
    private long group;
    private long prefix;
    private byte[] bytes;
    private int offset;
    private int length;

    /** Keeps the reads of {@link #touchAhead} from being removed as dead code. */
    @SuppressWarnings("unused")
    private int touched;

    SortedCursor(SortIndex index, BinaryRow row) {
        this.index = index;
        this.row = row;
    }

    void reset(byte[][] dataPages) {
        this.dataPages = dataPages;
        this.packed = dataPages == null ? null : index.packedOrder();
        this.next = 0;
        this.bytes = null;
    }

    @Override
    public boolean next() {
        if (next >= index.size() || dataPages == null) {
            bytes = null;
            return false;
        }
        long pointer;
        if (packed != null) {
            long value = packed.value(next);
            group = packed.group(value);
            prefix = packed.prefix(value);
            pointer = packed.pointer(value);
            length = packed.length(value);
        } else {
            group = index.group(next);
            prefix = index.prefix(next);
            pointer = index.pointer(next);
            length = index.length(next);
        }
        bytes = dataPages[(int) (pointer >>> 32)];
        offset = (int) pointer;
        if ((next & (AHEAD - 1)) == 0) {
            touchAhead(next + AHEAD);
        }
        next++;
        return true;
    }

    /**
     * Reads every cache line of each of the next {@link #AHEAD} rows in one tight loop. Rows in
     * sorted order are at random places in a buffer far larger than the caches: one row at a time,
     * every line of every row stalls on memory while the encoding after it waits; loads issued
     * together overlap their misses. Java has no prefetch instruction. FlushBenchmark (200,000
     * rows, keys in [0, 40,000)), the first byte of each row against all its lines: schema2 379 to
     * 333 ns per row without a codec, 452 to 413 with LZ4; schema1 230 to 209 and 272 to 250.
     * (Skipping the rows that the flush folds away, or loading 32 rows ahead, gained nothing.)
     */
    private void touchAhead(int from) {
        int to = Math.min(from + AHEAD, index.size());
        int sum = 0;
        for (int i = from; i < to; i++) {
            long pointer;
            int length;
            if (packed != null) {
                long value = packed.value(i);
                pointer = packed.pointer(value);
                length = packed.length(value);
            } else {
                pointer = index.pointer(i);
                length = index.length(i);
            }
            byte[] page = dataPages[(int) (pointer >>> 32)];
            int start = (int) pointer;
            int end = start + length - 1;
            // The first three lines without a loop: a loop whose trip count changes from row to
            // row (a 170-byte row spans three or four lines) mispredicts its exit, and the
            // loads issued after the branch are thrown away with it.
            sum +=
                    page[start]
                            + page[Math.min(start + CACHE_LINE, end)]
                            + page[Math.min(start + 2 * CACHE_LINE, end)];
            for (int at = start + 3 * CACHE_LINE; at < end; at += CACHE_LINE) {
                sum += page[at];
            }
            sum += page[end];
        }
        touched += sum;
    }

    /** {@code partitionId << 32 | bucket} of the current row. */
    @Override
    public long group() {
        return group;
    }

    /** Rows stay in the buffer's pages until it is cleared. */
    @Override
    public boolean rowsStayValid() {
        return true;
    }

    /** The caller's partition id of the current row. */
    public int partitionId() {
        return (int) (group >>> 32);
    }

    public int bucket() {
        return (int) group;
    }

    /**
     * The current row's {@link io.weir.data.KeyFields#normalizedPrefix} (0 without a key): when the
     * prefixes of two rows differ, so do their keys; when they are equal and {@link
     * io.weir.data.KeyFields#prefixDetermines()}, the keys are equal.
     */
    @Override
    public long prefix() {
        return prefix;
    }

    /** The current row: a reused view into the buffer. */
    @Override
    public BinaryRow row() {
        return row.pointTo(bytes, offset, length);
    }

    /** The array holding the current row's bytes (shared, not copied). */
    public byte[] bytes() {
        return bytes;
    }

    /** Where the current row starts in {@link #bytes()}. */
    public int offset() {
        return offset;
    }

    /** The current row's size in bytes. */
    public int length() {
        return length;
    }
}
