package io.weir.bench;

import io.weir.data.BinaryRow;
import io.weir.util.LittleEndian;

/**
 * An endless stream of rows for write benchmarks: cycles through a pool of prepared rows and gives
 * each row a fresh key, uniformly random in {@code [0, keyRange)} (an xorshift generator and a
 * multiply-shift range reduction: a few ns, no allocation), written into the row in place, as a
 * datagen source would. The returned view is reused; the writer copies the bytes.
 */
public final class RowSource {
    private final RowArena pool;
    private final BinaryRow view;
    private final long keyRange;
    private final int keyPosition;
    private long state;
    private int next;

    public RowSource(BenchSchema schema, int poolSize, long keyRange, long seed) {
        this.pool = RowArena.randomKeys(schema, poolSize, keyRange, seed);
        this.view = new BinaryRow(schema.arity());
        this.keyRange = keyRange;
        this.keyPosition = schema.keyPosition();
        this.state = seed | 1;
    }

    /** The next row: a reused view into the pool, with a new random key. */
    public BinaryRow next() {
        BinaryRow row = pool.row(next, view);
        next = next + 1 == pool.size() ? 0 : next + 1;
        long x = state;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        state = x;
        long key = Math.multiplyHigh(x >>> 1, keyRange << 1);
        LittleEndian.putLong(row.bytes(), row.fieldOffset(keyPosition), key);
        return row;
    }
}
