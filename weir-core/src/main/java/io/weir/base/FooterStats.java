package io.weir.base;

import io.weir.ColumnStats;
import io.weir.data.ValueStrings;
import io.weir.types.DataType;
import io.weir.types.Field;
import io.weir.types.RowType;

import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Per-column statistics of a base file for commit metadata, aggregated over the row groups of the
 * Parquet footer (so the write path does no per-record statistics work). The rules are those of
 * docs/format.md §5:
 *
 * <ul>
 *   <li>min and max are bounds in the type's order (strings and binaries: unsigned bytes); null
 *       when the column has no non-null value, or a FLOAT/DOUBLE column holds a NaN (NaN has no
 *       place in the order, so no bound is safe), or a row group has no statistics for it.
 *   <li>FLOAT/DOUBLE bounds that are zero are widened: a min of 0.0 becomes -0.0 and a max of -0.0
 *       becomes 0.0, because SQL compares -0.0 equal to 0.0.
 *   <li>strings and binaries longer than {@link #MAX_BOUND_BYTES} bytes are truncated to a prefix
 *       of at most that many bytes (strings at a character boundary); for the max, the last
 *       character (byte) of the prefix that can be incremented is incremented and the rest dropped.
 *       When no such character exists, min and max are null.
 * </ul>
 */
final class FooterStats {
    /** Longest string or binary bound kept in metadata, in (UTF-8) bytes. */
    static final int MAX_BOUND_BYTES = 64;

    private FooterStats() {}

    static Map<Integer, ColumnStats> of(ParquetMetadata footer, RowType rowType) {
        Map<String, Integer> positionByName = new HashMap<>();
        for (int i = 0; i < rowType.size(); i++) {
            positionByName.put(rowType.field(i).name(), i);
        }
        int n = rowType.size();
        Statistics<?>[] merged = new Statistics<?>[n];
        long[] nullCounts = new long[n];
        boolean[] boundsUnknown = new boolean[n];
        for (BlockMetaData block : footer.getBlocks()) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                Integer pos = positionByName.get(chunk.getPath().toDotString());
                if (pos == null) {
                    continue;
                }
                Statistics<?> stats = chunk.getStatistics();
                nullCounts[pos] += stats.isNumNullsSet() ? stats.getNumNulls() : 0;
                if (!stats.hasNonNullValue()) {
                    // no bounds: fine if every value is null, unknown otherwise
                    boundsUnknown[pos] |= stats.getNumNulls() != chunk.getValueCount();
                } else if (merged[pos] == null) {
                    merged[pos] = stats.copy();
                } else {
                    merged[pos].mergeStatistics(stats);
                }
            }
        }
        Map<Integer, ColumnStats> result = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Field field = rowType.field(i);
            String min = null;
            String max = null;
            if (merged[i] != null && !boundsUnknown[i]) {
                min = bound(merged[i].genericGetMin(), field.type(), false);
                max = bound(merged[i].genericGetMax(), field.type(), true);
            }
            if (min == null || max == null) {
                // a NaN or a string without an upper bound: keep neither, which is simpler to use
                min = null;
                max = null;
            }
            result.put(field.id(), new ColumnStats(min, max, nullCounts[i]));
        }
        return result;
    }

    /** The canonical text of a Parquet min or max of a column of {@code type}, or null. */
    private static String bound(Object value, DataType type, boolean upper) {
        Object weirValue =
                switch (type.root()) {
                    case BOOLEAN, INT, DATE, TIME, BIGINT -> value;
                    case TINYINT -> (byte) (int) (Integer) value;
                    case SMALLINT -> (short) (int) (Integer) value;
                    case FLOAT -> floatBound((Float) value, upper);
                    case DOUBLE -> doubleBound((Double) value, upper);
                    case DECIMAL -> decimal(value, type.scale());
                    case CHAR, VARCHAR -> stringBound((Binary) value, upper);
                    case BINARY, VARBINARY -> binaryBound(((Binary) value).getBytes(), upper);
                    case TIMESTAMP, TIMESTAMP_LTZ -> ParquetTypes.toTimestamp((Long) value, type);
                };
        return ValueStrings.toText(weirValue, type);
    }

    private static Float floatBound(Float v, boolean upper) {
        if (v.isNaN()) {
            return null;
        }
        return v == 0.0f ? (upper ? 0.0f : -0.0f) : v;
    }

    private static Double doubleBound(Double v, boolean upper) {
        if (v.isNaN()) {
            return null;
        }
        return v == 0.0d ? (upper ? 0.0d : -0.0d) : v;
    }

    private static BigDecimal decimal(Object value, int scale) {
        if (value instanceof Integer i) {
            return BigDecimal.valueOf(i, scale);
        } else if (value instanceof Long l) {
            return BigDecimal.valueOf(l, scale);
        }
        return new BigDecimal(new BigInteger(((Binary) value).getBytes()), scale);
    }

    /**
     * A string bound of at most {@link #MAX_BOUND_BYTES} UTF-8 bytes, cut at a character boundary;
     * an upper bound has its last character incremented (skipping surrogates), or is null if every
     * character of the prefix is U+10FFFF.
     */
    static String stringBound(Binary value, boolean upper) {
        String s = value.toStringUsingUTF8();
        if (value.length() <= MAX_BOUND_BYTES) {
            return s;
        }
        int[] codePoints = s.codePoints().toArray();
        int count = 0;
        int bytes = 0;
        while (count < codePoints.length
                && bytes + utf8Length(codePoints[count]) <= MAX_BOUND_BYTES) {
            bytes += utf8Length(codePoints[count]);
            count++;
        }
        if (!upper) {
            return new String(codePoints, 0, count);
        }
        for (int last = count - 1; last >= 0; last--) {
            int next = codePoints[last] + 1;
            if (next == Character.MIN_SURROGATE) {
                next = Character.MAX_SURROGATE + 1;
            }
            if (next <= Character.MAX_CODE_POINT) {
                // the incremented character may need one more byte; still a valid upper bound
                codePoints[last] = next;
                return new String(codePoints, 0, last + 1);
            }
        }
        return null;
    }

    /**
     * A binary bound of at most {@link #MAX_BOUND_BYTES} bytes: a prefix, for an upper bound with
     * its last byte below 0xFF incremented (null if none).
     */
    static byte[] binaryBound(byte[] value, boolean upper) {
        if (value.length <= MAX_BOUND_BYTES) {
            return value;
        }
        byte[] prefix = Arrays.copyOf(value, MAX_BOUND_BYTES);
        if (!upper) {
            return prefix;
        }
        for (int last = prefix.length - 1; last >= 0; last--) {
            if (prefix[last] != (byte) 0xFF) {
                prefix[last]++;
                return Arrays.copyOf(prefix, last + 1);
            }
        }
        return null;
    }

    private static int utf8Length(int codePoint) {
        return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    }
}
