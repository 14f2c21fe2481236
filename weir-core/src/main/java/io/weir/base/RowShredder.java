package io.weir.base;

import io.weir.data.BinaryRow;
import io.weir.types.DataType;
import io.weir.types.RowType;

import org.apache.parquet.schema.MessageType;

import java.util.stream.IntStream;

/**
 * Shreds {@link BinaryRow}s into a row group's {@link FlatColumnWriter}s, field by field straight
 * from the row bytes: no record assembly (a flat row is one value or null per column). Strings and
 * binaries are passed as the row's bytes, which the writers copy only where they keep them
 * (dictionary entries and min/max statistics); plain-encoded values are copied into the page once.
 */
final class RowShredder {
    // What each column does, decided once per file.
    private static final byte BOOLEAN = 0;
    private static final byte BYTE = 1;
    private static final byte SHORT = 2;
    private static final byte INT = 3;
    private static final byte LONG = 4;
    private static final byte FLOAT = 5;
    private static final byte DOUBLE = 6;
    private static final byte LONG_AS_INT = 7; // DECIMAL(p <= 9): the unscaled long fits an int
    private static final byte BIG_DECIMAL = 8;
    private static final byte BYTES = 9;
    private static final byte TIMESTAMP_MICROS = 10;
    private static final byte TIMESTAMP_NANOS = 11;

    private static final long MICROS_PER_MILLI = 1_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final MessageType schema;
    private final String[] names;
    private final byte[] kinds;
    private final int[] requiredPositions;
    private final int[] countPositions; // timestamps stored as micros or nanos: may overflow
    private final byte[][] decimalScratch;

    private final FlatColumnWriter[] columns;

    RowShredder(RowType rowType) {
        this.schema = ParquetTypes.messageType(rowType);
        int n = rowType.size();
        this.names = new String[n];
        this.kinds = new byte[n];
        this.decimalScratch = new byte[n][];
        this.columns = new FlatColumnWriter[n];
        for (int i = 0; i < n; i++) {
            DataType type = rowType.type(i);
            names[i] = rowType.field(i).name();
            kinds[i] = kind(type);
            if (kinds[i] == BIG_DECIMAL) {
                decimalScratch[i] = new byte[ParquetTypes.decimalByteWidth(type.precision())];
            }
        }
        this.requiredPositions =
                IntStream.range(0, n).filter(i -> !rowType.type(i).nullable()).toArray();
        this.countPositions =
                IntStream.range(0, n)
                        .filter(i -> kinds[i] == TIMESTAMP_MICROS || kinds[i] == TIMESTAMP_NANOS)
                        .toArray();
    }

    private static byte kind(DataType type) {
        return switch (type.root()) {
            case BOOLEAN -> BOOLEAN;
            case TINYINT -> BYTE;
            case SMALLINT -> SHORT;
            case INT, DATE, TIME -> INT;
            case BIGINT -> LONG;
            case FLOAT -> FLOAT;
            case DOUBLE -> DOUBLE;
            case DECIMAL -> {
                if (type.precision() <= ParquetTypes.MAX_INT32_DECIMAL_PRECISION) {
                    yield LONG_AS_INT;
                }
                yield type.isFixedLength() ? LONG : BIG_DECIMAL;
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> BYTES;
            case TIMESTAMP, TIMESTAMP_LTZ ->
                    switch (ParquetTypes.timeUnit(type)) {
                        case MILLIS -> LONG; // the compact slot holds epoch millis
                        case MICROS -> TIMESTAMP_MICROS;
                        case NANOS -> TIMESTAMP_NANOS;
                    };
        };
    }

    MessageType schema() {
        return schema;
    }

    /**
     * The width in bits of column {@code i}'s Parquet integer (32 for INT32, 64 for INT64), or 0 if
     * it is stored as another type.
     */
    int integerWidth(int i) {
        return switch (kinds[i]) {
            case BYTE, SHORT, INT, LONG_AS_INT -> 32;
            case LONG, TIMESTAMP_MICROS, TIMESTAMP_NANOS -> 64;
            default -> 0;
        };
    }

    /**
     * The integer stored for non-null field {@code i} of {@code row}, a column with an {@link
     * #integerWidth}: an INT32 sign-extended.
     */
    long integer(BinaryRow row, int i) {
        return switch (kinds[i]) {
            case BYTE -> row.getByte(i);
            case SHORT -> row.getShort(i);
            case INT -> row.getInt(i);
            case LONG_AS_INT -> (int) row.getLong(i);
            case LONG -> row.getLong(i);
            case TIMESTAMP_MICROS -> timestamp(row, i, MICROS_PER_MILLI);
            case TIMESTAMP_NANOS -> timestamp(row, i, NANOS_PER_MILLI);
            default -> throw new IllegalStateException("Column " + names[i] + " is no integer");
        };
    }

    /**
     * Why {@code row} cannot be written, or null if it can: checked before a record is started, so
     * that a rejected row leaves the file intact.
     */
    String problem(BinaryRow row) {
        for (int i : requiredPositions) {
            if (row.isNullAt(i)) {
                return "column " + names[i] + " is NOT NULL but the row has null";
            }
        }
        for (int i : countPositions) {
            if (!row.isNullAt(i)) {
                boolean nanos = kinds[i] == TIMESTAMP_NANOS;
                try {
                    timestamp(row, i, nanos ? NANOS_PER_MILLI : MICROS_PER_MILLI);
                } catch (ArithmeticException e) {
                    return "column "
                            + names[i]
                            + " holds "
                            + row.getTimestamp(i, 9)
                            + ", which is out of the range of a 64-bit count of "
                            + (nanos
                                    ? "nanoseconds since the epoch ("
                                            + TimestampCounts.NANOS_RANGE
                                            + ")"
                                    : "microseconds since the epoch");
                }
            }
        }
        return null;
    }

    /** Writes the next rows to the column writers of {@code store} (one per row group). */
    void writeTo(FlatColumnStore store) {
        for (int i = 0; i < columns.length; i++) {
            columns[i] = store.column(i);
        }
    }

    /** Writes a row's fields to the column writers; the caller ends the record. */
    void write(BinaryRow row) {
        for (int i = 0; i < kinds.length; i++) {
            if (row.isNullAt(i)) {
                columns[i].writeNull();
            } else {
                writeField(row, i, columns[i]);
            }
        }
    }

    private void writeField(BinaryRow row, int i, FlatColumnWriter column) {
        switch (kinds[i]) {
            case BOOLEAN -> column.write(row.getBoolean(i));
            case BYTE -> column.write((int) row.getByte(i));
            case SHORT -> column.write((int) row.getShort(i));
            case INT -> column.write(row.getInt(i));
            case LONG -> column.write(row.getLong(i));
            case FLOAT -> column.write(row.getFloat(i));
            case DOUBLE -> column.write(row.getDouble(i));
            case LONG_AS_INT -> column.write((int) row.getLong(i));
            case BIG_DECIMAL -> {
                byte[] unscaled = bigDecimal(row, i);
                column.write(unscaled, 0, unscaled.length);
            }
            case BYTES -> column.write(row.bytes(), row.varDataOffset(i), row.varDataLength(i));
            case TIMESTAMP_MICROS -> column.write(timestamp(row, i, MICROS_PER_MILLI));
            case TIMESTAMP_NANOS -> column.write(timestamp(row, i, NANOS_PER_MILLI));
            default -> throw new IllegalStateException("Unknown column kind " + kinds[i]);
        }
    }

    /**
     * The row holds the minimal big-endian two's complement of the unscaled value; Parquet's
     * FIXED_LEN_BYTE_ARRAY needs it sign-extended to the column's width.
     */
    private byte[] bigDecimal(BinaryRow row, int i) {
        long slot = row.getLong(i);
        int start = row.offset() + (int) (slot >>> 32);
        int length = (int) slot;
        byte[] out = decimalScratch[i];
        int pad = out.length - length;
        byte sign = length > 0 && row.bytes()[start] < 0 ? (byte) -1 : 0;
        for (int k = 0; k < pad; k++) {
            out[k] = sign;
        }
        System.arraycopy(row.bytes(), start, out, pad, length);
        return out;
    }

    private static long timestamp(BinaryRow row, int i, long unitsPerMilli) {
        return TimestampCounts.count(row, i, unitsPerMilli);
    }
}
