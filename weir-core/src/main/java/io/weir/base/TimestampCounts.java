package io.weir.base;

import io.weir.data.BinaryRow;
import io.weir.types.DataType;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;

import java.util.stream.IntStream;

/**
 * The range of the TIMESTAMP and TIMESTAMP_LTZ columns a base file stores as a 64-bit count of
 * microseconds (precision 4 to 6) or nanoseconds (7 to 9) since the epoch (docs/format.md §5.1).
 * Log files hold any timestamp, base files only those whose count fits; writers check it per row
 * ({@link #outOfRange}), so that no row is accepted that compaction could not write.
 *
 * <p>Built once per writer; the per-row check reads the columns it covers only: nothing for a row
 * type without such columns, for each such column one read of the stored milliseconds and two
 * comparisons (values within a few milliseconds of the limits take an exact path).
 */
public final class TimestampCounts {
    /**
     * The nanosecond range, as text: 1677-09-21T00:12:43.145224192 to
     * 2262-04-11T23:47:16.854775807.
     */
    public static final String NANOS_RANGE =
            "1677-09-21T00:12:43.145224192 to 2262-04-11T23:47:16.854775807";

    /** The microsecond range, as text: about 290,000 years either side of 1970. */
    public static final String MICROS_RANGE =
            "-290308-12-21T19:59:05.224192 to +294247-01-10T04:00:54.775807";

    static final long NANOS_PER_MILLI = 1_000_000L;
    static final long MICROS_PER_MILLI = 1_000L;

    private final int[] positions;
    private final long[] unitsPerMilli;
    private final long[] lowMillis; // exclusive: greater millis surely fit
    private final long[] highMillis; // exclusive: smaller millis surely fit

    private TimestampCounts(RowType rowType, int[] positions) {
        this.positions = positions;
        int n = positions.length;
        this.unitsPerMilli = new long[n];
        this.lowMillis = new long[n];
        this.highMillis = new long[n];
        for (int k = 0; k < n; k++) {
            long units = unitsPerMilli(rowType.type(positions[k]));
            unitsPerMilli[k] = units;
            lowMillis[k] = Long.MIN_VALUE / units;
            highMillis[k] = Long.MAX_VALUE / units;
        }
    }

    /** The check for the count-stored timestamp columns of {@code rowType}; null if it has none. */
    public static TimestampCounts of(RowType rowType) {
        int[] positions =
                IntStream.range(0, rowType.size()).filter(i -> isCount(rowType.type(i))).toArray();
        return positions.length == 0 ? null : new TimestampCounts(rowType, positions);
    }

    /** Whether a base file stores values of {@code type} as a count of micro- or nanoseconds. */
    public static boolean isCount(DataType type) {
        return switch (type.root()) {
            case TIMESTAMP, TIMESTAMP_LTZ ->
                    type.precision() > DataType.MAX_COMPACT_TIMESTAMP_PRECISION;
            default -> false;
        };
    }

    /** The range of values of {@code type} (a count-stored timestamp type) in base files. */
    public static String range(DataType type) {
        return unitsPerMilli(type) == NANOS_PER_MILLI ? NANOS_RANGE : MICROS_RANGE;
    }

    /** The position of the first column whose value {@code row} holds out of range, or -1. */
    public int outOfRange(BinaryRow row) {
        for (int k = 0; k < positions.length; k++) {
            int pos = positions[k];
            if (row.isNullAt(pos)) {
                continue;
            }
            long millis = millis(row, pos);
            if ((millis <= lowMillis[k] || millis >= highMillis[k])
                    && !fits(row, pos, unitsPerMilli[k])) {
                return pos;
            }
        }
        return -1;
    }

    private static boolean fits(BinaryRow row, int pos, long unitsPerMilli) {
        try {
            count(row, pos, unitsPerMilli);
            return true;
        } catch (ArithmeticException e) {
            return false;
        }
    }

    private static long unitsPerMilli(DataType type) {
        return type.precision() > 6 ? NANOS_PER_MILLI : MICROS_PER_MILLI;
    }

    private static long millis(BinaryRow row, int pos) {
        long slot = row.getLong(pos);
        return LittleEndian.getLong(row.bytes(), row.offset() + (int) (slot >>> 32));
    }

    /**
     * The timestamp at {@code pos} as a count of micros or nanos since the epoch, floored to the
     * unit; fails with ArithmeticException outside the INT64 range.
     */
    static long count(BinaryRow row, int pos, long unitsPerMilli) {
        long slot = row.getLong(pos);
        long millis = LittleEndian.getLong(row.bytes(), row.offset() + (int) (slot >>> 32));
        long units = (int) slot * unitsPerMilli / NANOS_PER_MILLI; // nano of milli, truncated
        // millis * unitsPerMilli alone may overflow where the sum does not (near the minimum)
        return millis < 0
                ? Math.addExact(
                        Math.multiplyExact(millis + 1, unitsPerMilli), units - unitsPerMilli)
                : Math.addExact(Math.multiplyExact(millis, unitsPerMilli), units);
    }
}
