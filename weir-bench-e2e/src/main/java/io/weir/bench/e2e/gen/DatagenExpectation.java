package io.weir.bench.e2e.gen;

import org.apache.flink.types.Row;

import java.time.LocalDateTime;
import java.util.BitSet;

/**
 * What a table written from {@link DatagenSource}'s rows must look like. datagen's values cannot be
 * generated again, so this is weaker than {@link ExpectedRows}: each key at most once and within
 * {@code [0, rows / 5)}; every value of the shape datagen makes (hex strings of the right length,
 * metrics in range, a timestamp); and as many keys as {@code rows} uniform draws leave distinct,
 * within six standard deviations of the expected count. A sink that writes a key twice, mixes up
 * columns or loses more keys than that (a bucket, a flush) fails it; one that keeps an older
 * version of a key passes.
 */
public final class DatagenExpectation {
    private final Workload workload;
    private final int columns;
    private final long keys;
    private final double expectedKeys;
    private final double tolerance;
    private final BitSet seen = new BitSet();
    private long read;
    private long unknown;
    private long duplicates;
    private long malformed;

    public DatagenExpectation(Workload workload, long rows, long keys) {
        if (keys > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Cannot check runs of more than 2^31 keys: " + keys);
        }
        this.workload = workload;
        this.columns = workload.columns().size();
        this.keys = keys;
        // rows uniform draws from `keys` values: K (1 - (1 - 1/K)^N) distinct, with variance
        // about K e^-λ (1 - (1 + λ) e^-λ) for λ = N / K (the occupancy problem).
        double k = keys;
        this.expectedKeys = -k * Math.expm1(rows * Math.log1p(-1 / k));
        double lambda = rows / k;
        double empty = Math.exp(-lambda);
        double sigma = Math.sqrt(k * empty * (1 - (1 + lambda) * empty));
        this.tolerance = 6 * sigma + 1;
    }

    /** Checks one row read back (Flink's external types, the workload's columns in order). */
    public void accept(Row row) {
        read++;
        Object keyField = row.getField(0);
        if (!(keyField instanceof Long key) || key < 0 || key >= keys) {
            unknown++;
            return;
        }
        if (seen.get(key.intValue())) {
            duplicates++;
            return;
        }
        seen.set(key.intValue());
        if (!wellFormed(key, row)) {
            malformed++;
        }
    }

    private boolean wellFormed(long key, Row row) {
        if (row.getArity() != columns) {
            return false;
        }
        if (workload == Workload.SCHEMA1) {
            if (!isHex(row.getField(1), (int) (key % 32) + 64)) {
                return false;
            }
            for (int m = 0; m < Workload.METRICS; m++) {
                if (!(row.getField(2 + m) instanceof Long metric)
                        || metric < 0
                        || metric > DatagenSource.METRIC_MAX) {
                    return false;
                }
            }
            return row.getField(2 + Workload.METRICS) instanceof LocalDateTime;
        }
        for (int s = 1; s <= workload.stringColumns(); s++) {
            if (!isHex(row.getField(s), Workload.STRING_LENGTH)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isHex(Object value, int length) {
        if (!(value instanceof String s) || s.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
                return false;
            }
        }
        return true;
    }

    /** The expected number of distinct keys (the mean), rounded. */
    public long expectedKeys() {
        return Math.round(expectedKeys);
    }

    /** How far the key count may be from {@link #expectedKeys()}. */
    public long tolerance() {
        return (long) Math.ceil(tolerance);
    }

    public long read() {
        return read;
    }

    public long unknownKeys() {
        return unknown;
    }

    public long duplicateKeys() {
        return duplicates;
    }

    public long malformedRows() {
        return malformed;
    }

    public boolean verified() {
        return unknown == 0
                && duplicates == 0
                && malformed == 0
                && Math.abs(read - expectedKeys) <= tolerance;
    }
}
