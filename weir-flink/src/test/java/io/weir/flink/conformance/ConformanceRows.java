package io.weir.flink.conformance;

import io.weir.types.DataType;
import io.weir.types.RowType;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;

import java.util.HexFormat;

/**
 * The text form of a row in the reader conformance corpus, one JSON array per row: the row kind,
 * then each value as a JSON string, or null. The native readers' tests render their Arrow output
 * the same way (docs/readers.md, "Conformance"):
 *
 * <ul>
 *   <li>BOOLEAN {@code true}/{@code false}; integers in decimal; DATE as epoch days; TIME as
 *       milliseconds of the day;
 *   <li>FLOAT and DOUBLE as their IEEE bits in lower-case hex (8 or 16 digits), so NaN and -0.0 are
 *       exact;
 *   <li>DECIMAL as a plain decimal with the scale's digits;
 *   <li>strings as themselves; binaries in lower-case hex;
 *   <li>TIMESTAMP and TIMESTAMP_LTZ as the count of their Arrow unit (ms for precision 0-3, us for
 *       4-6, ns for 7-9), floored.
 * </ul>
 */
final class ConformanceRows {
    private ConformanceRows() {}

    static String render(RowData row, RowType type) {
        StringBuilder sb =
                new StringBuilder("[\"").append(row.getRowKind().shortString()).append('"');
        for (int i = 0; i < type.size(); i++) {
            sb.append(", ");
            String text = row.isNullAt(i) ? null : text(row, i, type.type(i));
            if (text == null) {
                sb.append("null");
            } else {
                quote(sb, text);
            }
        }
        return sb.append(']').toString();
    }

    private static String text(RowData row, int i, DataType t) {
        return switch (t.root()) {
            case BOOLEAN -> Boolean.toString(row.getBoolean(i));
            case TINYINT -> Byte.toString(row.getByte(i));
            case SMALLINT -> Short.toString(row.getShort(i));
            case INT, DATE, TIME -> Integer.toString(row.getInt(i));
            case BIGINT -> Long.toString(row.getLong(i));
            case FLOAT -> String.format("%08x", Float.floatToRawIntBits(row.getFloat(i)));
            case DOUBLE -> String.format("%016x", Double.doubleToRawLongBits(row.getDouble(i)));
            case DECIMAL ->
                    row.getDecimal(i, t.precision(), t.scale()).toBigDecimal().toPlainString();
            case CHAR, VARCHAR -> row.getString(i).toString();
            case BINARY, VARBINARY -> HexFormat.of().formatHex(row.getBinary(i));
            case TIMESTAMP, TIMESTAMP_LTZ -> timestamp(row.getTimestamp(i, t.precision()), t);
        };
    }

    private static String timestamp(TimestampData ts, DataType t) {
        long millis = ts.getMillisecond();
        int nanos = ts.getNanoOfMillisecond();
        if (t.precision() <= 3) {
            return Long.toString(millis);
        }
        if (t.precision() <= 6) {
            return Long.toString(Math.addExact(Math.multiplyExact(millis, 1000L), nanos / 1000));
        }
        // In 128 bits: millis × 10^6 overflows a long at the low end of the range, the sum not.
        return java.math.BigInteger.valueOf(millis)
                .multiply(java.math.BigInteger.valueOf(1_000_000L))
                .add(java.math.BigInteger.valueOf(nanos))
                .toString();
    }

    /** Appends {@code s} as a JSON string. */
    static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
