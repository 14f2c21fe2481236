package io.weir.bench.e2e.gen;

import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * The rows of a workload as a pure function of their index: row {@code i} of a run is always the
 * same, so a table can be checked by generating its rows again. The row's random words are
 * splitmix64 of (a hash of {@code i}, word number); its key is uniform in {@code [0, keys)}.
 *
 * <p>Values as Flink's datagen makes them, with the objects datagen makes per row (a {@link
 * GenericRowData}, boxed longs, one string object per string column): strings are lowercase hex
 * (datagen's {@code nextHexString}), metrics uniform in {@code [0, 1e9)}. One exception: {@code ts}
 * is {@code 2025-01-01T00:00:00Z} plus {@code i} ms instead of {@code NOW()}, so that it can be
 * checked too, and so that it orders a key's versions as they were generated (it is Hudi's
 * precombine field).
 */
public final class RowGenerator implements GeneratorFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    /** 2025-01-01T00:00:00Z. */
    public static final long BASE_MILLIS = 1_735_689_600_000L;

    private static final long SEED = 0x5EED_0F_3E1BL;
    private static final long METRIC_BOUND = 1_000_000_000L;

    /** Words 1..6 hold item_name (at most 95 chars), words 7..14 the metrics. */
    private static final int FIRST_METRIC_WORD = 7;

    private static final byte[] HEX = "0123456789abcdef".getBytes();

    private final Workload workload;

    /** A prime: {@code index * UNIQUE_STRIDE mod rows} is a permutation of the indexes. */
    private static final long UNIQUE_STRIDE = 1_000_000_007L;

    private final long keys;
    private final boolean uniqueKeys;

    /**
     * @param workload the row shape
     * @param rows the run's row count: keys are uniform in {@code [0, rows / 5)}
     */
    public RowGenerator(Workload workload, long rows) {
        this(workload, rows, Workload.keys(rows), false);
    }

    /**
     * @param uniqueKeys every row a key of its own, the keys {@code [0, rows)} in a scattered order
     *     (for bulk inserts, which Hudi does not deduplicate), instead of uniform in {@code [0,
     *     rows / 5)}
     */
    public RowGenerator(Workload workload, long rows, boolean uniqueKeys) {
        this(workload, rows, Workload.keys(rows), uniqueKeys);
    }

    /**
     * @param keys without {@code uniqueKeys}: keys are uniform in {@code [0, keys)} (a table of a
     *     fixed size, {@code --keys}); ignored with them
     */
    public RowGenerator(Workload workload, long rows, long keys, boolean uniqueKeys) {
        if (uniqueKeys && rows % UNIQUE_STRIDE == 0) {
            throw new IllegalArgumentException("rows must not be a multiple of " + UNIQUE_STRIDE);
        }
        if (keys < 1) {
            throw new IllegalArgumentException("keys must be at least 1, got " + keys);
        }
        this.workload = workload;
        this.keys = uniqueKeys ? rows : keys;
        this.uniqueKeys = uniqueKeys;
    }

    @Override
    public RowData map(Long index) {
        return row(index);
    }

    /** Row {@code index}. */
    public GenericRowData row(long index) {
        long seed = seed(index);
        long key = key(index, seed);
        if (workload == Workload.SCHEMA1) {
            GenericRowData row = new GenericRowData(3 + Workload.METRICS);
            row.setField(0, key);
            // SUBSTR(item_name, 0, MOD(item_id, 32) + 64) of BENCHMARK.md
            row.setField(1, hex(seed, 1, (int) (key & 31) + 64));
            for (int m = 0; m < Workload.METRICS; m++) {
                row.setField(
                        2 + m,
                        Long.remainderUnsigned(word(seed, FIRST_METRIC_WORD + m), METRIC_BOUND));
            }
            row.setField(2 + Workload.METRICS, TimestampData.fromEpochMillis(BASE_MILLIS + index));
            return row;
        }
        int strings = workload.stringColumns();
        GenericRowData row = new GenericRowData(1 + strings);
        row.setField(0, key);
        for (int c = 1; c <= strings; c++) {
            row.setField(c, hex(seed, c, Workload.STRING_LENGTH));
        }
        return row;
    }

    /** The key of row {@code index}: what {@link #row} puts in column 0, without the rest. */
    public long key(long index) {
        return key(index, seed(index));
    }

    private long key(long index, long seed) {
        // index < rows <= 2^31: the product fits in a long
        return uniqueKeys ? (index * UNIQUE_STRIDE) % keys : keyOfSeed(seed);
    }

    public long keys() {
        return keys;
    }

    public Workload workload() {
        return workload;
    }

    private long keyOfSeed(long seed) {
        return Long.remainderUnsigned(word(seed, 0), keys);
    }

    private static long seed(long index) {
        return SplitMix64.mix(index * SplitMix64.GAMMA + SEED);
    }

    private static long word(long seed, int n) {
        return SplitMix64.mix(seed + n * SplitMix64.GAMMA);
    }

    /** {@code length} hex chars from the row's words {@code firstWord, firstWord + 1, ...}. */
    private static StringData hex(long seed, int firstWord, int length) {
        byte[] chars = new byte[length];
        long w = 0;
        for (int i = 0; i < length; i++) {
            if ((i & 15) == 0) {
                w = word(seed, firstWord + (i >>> 4));
            }
            chars[i] = HEX[(int) (w >>> 60)];
            w <<= 4;
        }
        return StringData.fromBytes(chars);
    }
}
