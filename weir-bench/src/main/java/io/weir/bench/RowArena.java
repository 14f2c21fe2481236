package io.weir.bench;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;

/**
 * Rows stored back to back in one array, made once in a benchmark's setup, so that the measured
 * code reads rows the way it would from a network buffer: {@link #row(int, BinaryRow)} points a
 * reused view at row i.
 */
public final class RowArena {
    private final BenchSchema schema;
    private final byte[] bytes;
    private final int[] offsets;
    private final int[] lengths;
    private final long[] keys;

    private RowArena(BenchSchema schema, byte[] bytes, int[] offsets, int[] lengths, long[] keys) {
        this.schema = schema;
        this.bytes = bytes;
        this.offsets = offsets;
        this.lengths = lengths;
        this.keys = keys;
    }

    /**
     * {@code count} rows of {@code schema} whose i-th key is {@code keyOf(i)}, other fields random
     * from {@code seed}.
     */
    public static RowArena of(BenchSchema schema, int count, long seed, LongUnaryOperator keyOf) {
        SplittableRandom random = new SplittableRandom(seed);
        BinaryRowWriter writer = new BinaryRowWriter(schema.arity(), 512);
        byte[] bytes = new byte[1 << 16];
        int[] offsets = new int[count];
        int[] lengths = new int[count];
        long[] keys = new long[count];
        int at = 0;
        for (int i = 0; i < count; i++) {
            keys[i] = keyOf.applyAsLong(i);
            BinaryRow row = schema.row(writer, keys[i], random);
            int size = row.sizeInBytes();
            if (at + size > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(at + size, 2 * bytes.length));
            }
            row.copyTo(bytes, at);
            offsets[i] = at;
            lengths[i] = size;
            at += size;
        }
        return new RowArena(schema, Arrays.copyOf(bytes, at), offsets, lengths, keys);
    }

    /** {@code count} rows with keys uniformly random in {@code [0, keyRange)}. */
    public static RowArena randomKeys(BenchSchema schema, int count, long keyRange, long seed) {
        SplittableRandom keys = new SplittableRandom(seed ^ 0x5DEECE66DL);
        return of(schema, count, seed, i -> keys.nextLong(keyRange));
    }

    public BenchSchema schema() {
        return schema;
    }

    public int size() {
        return offsets.length;
    }

    /** Points {@code view} at row i and returns it. */
    public BinaryRow row(int i, BinaryRow view) {
        return view.pointTo(bytes, offsets[i], lengths[i]);
    }

    public long key(int i) {
        return keys[i];
    }

    /** The total size of the rows in bytes. */
    public long bytes() {
        return bytes.length;
    }
}
