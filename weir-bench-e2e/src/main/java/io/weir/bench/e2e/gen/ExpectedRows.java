package io.weir.bench.e2e.gen;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.util.NumberSequenceIterator;

import java.util.Arrays;

/**
 * What a table written from a run's rows must hold: every key generated, each with its latest
 * value.
 *
 * <p>"Latest" is not one row: the source splits the indexes {@code [0, rows)} into one range per
 * subtask (Flink's {@link NumberSequenceIterator#split}, as {@code DataGeneratorSource} does); each
 * range is emitted in order, but the subtasks interleave. So a key's final value is the last
 * version of the key within ONE of the ranges, and any of those candidates is correct.
 */
public final class ExpectedRows {
    private final RowGenerator generator;

    /** Per range, per key: the index of the key's last row in that range, or -1. */
    private final int[][] lastIndex;

    private final long distinctKeys;

    /**
     * @param generator the run's rows
     * @param rows the run's row count (at most {@link Integer#MAX_VALUE})
     * @param splits the source's parallelism
     */
    public ExpectedRows(RowGenerator generator, long rows, int splits) {
        if (rows > Integer.MAX_VALUE || generator.keys() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Cannot check runs of more than 2^31 rows: " + rows);
        }
        this.generator = generator;
        NumberSequenceIterator[] ranges = new NumberSequenceIterator(0, rows - 1).split(splits);
        this.lastIndex = new int[ranges.length][];
        int keys = (int) generator.keys();
        boolean[] seen = new boolean[keys];
        long distinct = 0;
        for (int s = 0; s < ranges.length; s++) {
            int[] last = new int[keys];
            Arrays.fill(last, -1);
            if (ranges[s].hasNext()) {
                for (long i = ranges[s].getCurrent(); i <= ranges[s].getTo(); i++) {
                    int key = (int) generator.key(i);
                    last[key] = (int) i;
                    if (!seen[key]) {
                        seen[key] = true;
                        distinct++;
                    }
                }
            }
            lastIndex[s] = last;
        }
        this.distinctKeys = distinct;
    }

    /** The number of rows the table must hold. */
    public long distinctKeys() {
        return distinctKeys;
    }

    /** Whether {@code key} was generated. */
    public boolean contains(long key) {
        if (key < 0 || key >= generator.keys()) {
            return false;
        }
        for (int[] last : lastIndex) {
            if (last[(int) key] >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code actual} is the latest value of {@code key} in one of the ranges. */
    public boolean isLatest(long key, RowMatcher actual) {
        if (key < 0 || key >= generator.keys()) {
            return false;
        }
        for (int[] last : lastIndex) {
            int index = last[(int) key];
            if (index >= 0 && actual.matches(generator.row(index))) {
                return true;
            }
        }
        return false;
    }

    /** A row read back, compared with a generated row. */
    @FunctionalInterface
    public interface RowMatcher {
        boolean matches(GenericRowData expected);
    }
}
