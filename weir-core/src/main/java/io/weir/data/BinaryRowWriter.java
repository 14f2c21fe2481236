package io.weir.data;

import io.weir.types.DataType;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;

/**
 * Builds {@link BinaryRow}s in a reusable buffer. Usage: {@link #reset()}, write every field (in
 * any order, each once), {@link #complete()}; the returned row is valid until the next reset.
 * {@code copy()} it to keep it.
 *
 * <p>Writes exactly what Flink's {@code BinaryRowWriter} writes for the same values.
 */
public final class BinaryRowWriter {
    private final int arity;
    private final int nullBitsSize;
    private final int fixedSize;
    private final BinaryRow row;
    private byte[] buffer;
    private int cursor;

    public BinaryRowWriter(int arity) {
        this(arity, 64);
    }

    public BinaryRowWriter(int arity, int initialVariableBytes) {
        this.arity = arity;
        this.nullBitsSize = BinaryRow.nullBitsSizeInBytes(arity);
        this.fixedSize = BinaryRow.fixedPartSize(arity);
        this.row = new BinaryRow(arity);
        this.buffer = new byte[fixedSize + initialVariableBytes];
        reset();
    }

    /** Starts a new row: kind INSERT, no nulls, all slots zero, empty variable part. */
    public BinaryRowWriter reset() {
        // The fixed part is whole words: word stores, not Arrays.fill's byte loop (not intrinsic).
        byte[] b = buffer;
        for (int i = 0; i < fixedSize; i += 8) {
            LittleEndian.putLong(b, i, 0L);
        }
        cursor = fixedSize;
        return this;
    }

    public void writeRowKind(RowKind kind) {
        buffer[0] = kind.toByteValue();
    }

    public void setNullAt(int pos) {
        int bit = pos + 8;
        buffer[bit >>> 3] |= (byte) (1 << (bit & 7));
        LittleEndian.putLong(buffer, slot(pos), 0L);
    }

    public void writeBoolean(int pos, boolean value) {
        buffer[slot(pos)] = (byte) (value ? 1 : 0);
    }

    public void writeByte(int pos, byte value) {
        buffer[slot(pos)] = value;
    }

    public void writeShort(int pos, short value) {
        LittleEndian.putShort(buffer, slot(pos), value);
    }

    public void writeInt(int pos, int value) {
        LittleEndian.putInt(buffer, slot(pos), value);
    }

    public void writeLong(int pos, long value) {
        LittleEndian.putLong(buffer, slot(pos), value);
    }

    public void writeFloat(int pos, float value) {
        writeInt(pos, Float.floatToIntBits(value));
    }

    public void writeDouble(int pos, double value) {
        writeLong(pos, Double.doubleToLongBits(value));
    }

    public void writeString(int pos, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        writeBinary(pos, utf8, 0, utf8.length);
    }

    public void writeBinary(int pos, byte[] value) {
        writeBinary(pos, value, 0, value.length);
    }

    /** Writes string or binary data ({@code len} bytes of {@code src} from {@code srcOff}). */
    public void writeBinary(int pos, byte[] src, int srcOff, int len) {
        if (len <= 7) {
            int slot = slot(pos);
            LittleEndian.putLong(buffer, slot, 0L);
            System.arraycopy(src, srcOff, buffer, slot, len);
            buffer[slot + 7] = (byte) (0x80 | len);
        } else {
            int rounded = roundToWord(len);
            ensureCapacity(rounded);
            // The last word first: the bytes past the value up to the word end are zero padding.
            LittleEndian.putLong(buffer, cursor + rounded - 8, 0L);
            System.arraycopy(src, srcOff, buffer, cursor, len);
            setOffsetAndSize(pos, cursor, len);
            cursor += rounded;
        }
    }

    /**
     * Writes a DECIMAL of the given precision; null is allowed (and keeps Flink's reserved bytes).
     */
    public void writeDecimal(int pos, BigDecimal value, int precision, int scale) {
        BigDecimal scaled = value == null ? null : rescale(value, precision, scale, pos);
        if (precision <= DataType.MAX_COMPACT_DECIMAL_PRECISION) {
            if (scaled == null) {
                setNullAt(pos);
            } else {
                writeLong(pos, scaled.unscaledValue().longValueExact());
            }
            return;
        }
        ensureCapacity(16);
        Arrays.fill(buffer, cursor, cursor + 16, (byte) 0);
        if (scaled == null) {
            setNullAt(pos);
            setOffsetAndSize(pos, cursor, 0);
        } else {
            byte[] unscaled = scaled.unscaledValue().toByteArray();
            System.arraycopy(unscaled, 0, buffer, cursor, unscaled.length);
            setOffsetAndSize(pos, cursor, unscaled.length);
        }
        cursor += 16;
    }

    /** Writes a TIMESTAMP/TIMESTAMP_LTZ of the given precision; null is allowed. */
    public void writeTimestamp(int pos, Timestamp value, int precision) {
        if (precision <= DataType.MAX_COMPACT_TIMESTAMP_PRECISION) {
            if (value == null) {
                setNullAt(pos);
            } else {
                writeLong(pos, value.millis());
            }
            return;
        }
        ensureCapacity(8);
        if (value == null) {
            setNullAt(pos);
            LittleEndian.putLong(buffer, cursor, 0L);
            setOffsetAndSize(pos, cursor, 0);
        } else {
            LittleEndian.putLong(buffer, cursor, value.millis());
            setOffsetAndSize(pos, cursor, value.nanoOfMillisecond());
        }
        cursor += 8;
    }

    /**
     * Copies field {@code sourcePos} of {@code source}, of type {@code type}, into field {@code
     * pos}, without going through Java objects (except DECIMAL and TIMESTAMP values of a precision
     * that does not fit the fixed slot).
     */
    public void copy(int pos, BinaryRow source, int sourcePos, DataType type) {
        if (source.isNullAt(sourcePos)) {
            setNullAt(pos);
            return;
        }
        switch (type.root()) {
            case CHAR, VARCHAR, BINARY, VARBINARY ->
                    writeBinary(
                            pos,
                            source.bytes(),
                            source.varDataOffset(sourcePos),
                            source.varDataLength(sourcePos));
            case DECIMAL -> {
                if (type.precision() <= DataType.MAX_COMPACT_DECIMAL_PRECISION) {
                    writeLong(pos, source.getLong(sourcePos));
                } else {
                    writeDecimal(
                            pos,
                            source.getDecimal(sourcePos, type.precision(), type.scale()),
                            type.precision(),
                            type.scale());
                }
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                if (type.precision() <= DataType.MAX_COMPACT_TIMESTAMP_PRECISION) {
                    writeLong(pos, source.getLong(sourcePos));
                } else {
                    writeTimestamp(
                            pos,
                            source.getTimestamp(sourcePos, type.precision()),
                            type.precision());
                }
            }
                // The fixed-length types: the whole 8-byte slot, zero padding included.
            default -> writeLong(pos, source.getLong(sourcePos));
        }
    }

    /**
     * Writes a Java value of the given type; accepts what {@link BinaryRow#get} returns plus
     * LocalDate (DATE), LocalTime (TIME), LocalDateTime (TIMESTAMP) and Instant (TIMESTAMP_LTZ).
     * Allocates; not for the per-record path.
     */
    public void write(int pos, Object value, DataType type) {
        if (value == null) {
            setNullAt(pos);
            return;
        }
        try {
            switch (type.root()) {
                case BOOLEAN -> writeBoolean(pos, (Boolean) value);
                case TINYINT -> writeByte(pos, ((Number) value).byteValue());
                case SMALLINT -> writeShort(pos, ((Number) value).shortValue());
                case INT -> writeInt(pos, ((Number) value).intValue());
                case BIGINT -> writeLong(pos, ((Number) value).longValue());
                case FLOAT -> writeFloat(pos, ((Number) value).floatValue());
                case DOUBLE -> writeDouble(pos, ((Number) value).doubleValue());
                case DECIMAL ->
                        writeDecimal(pos, (BigDecimal) value, type.precision(), type.scale());
                case CHAR, VARCHAR -> writeString(pos, (String) value);
                case BINARY, VARBINARY -> writeBinary(pos, (byte[]) value);
                case DATE ->
                        writeInt(
                                pos,
                                value instanceof LocalDate d
                                        ? (int) d.toEpochDay()
                                        : ((Number) value).intValue());
                case TIME ->
                        writeInt(
                                pos,
                                value instanceof LocalTime t
                                        ? (int) (t.toNanoOfDay() / 1_000_000)
                                        : ((Number) value).intValue());
                case TIMESTAMP, TIMESTAMP_LTZ ->
                        writeTimestamp(pos, toTimestamp(value), type.precision());
            }
        } catch (ClassCastException e) {
            throw new IllegalArgumentException(
                    "Cannot write a "
                            + value.getClass().getSimpleName()
                            + " to field "
                            + pos
                            + " of type "
                            + type,
                    e);
        }
    }

    private static Timestamp toTimestamp(Object value) {
        if (value instanceof Timestamp t) {
            return t;
        } else if (value instanceof LocalDateTime ldt) {
            return Timestamp.of(ldt);
        } else if (value instanceof Instant instant) {
            return Timestamp.of(instant);
        }
        throw new ClassCastException(value.getClass().getName());
    }

    private static BigDecimal rescale(BigDecimal value, int precision, int scale, int pos) {
        BigDecimal scaled = value.setScale(scale, RoundingMode.HALF_UP);
        if (scaled.precision() > precision) {
            throw new IllegalArgumentException(
                    "Cannot write "
                            + value
                            + " to field "
                            + pos
                            + ": it does not fit DECIMAL("
                            + precision
                            + ", "
                            + scale
                            + ")");
        }
        return scaled;
    }

    /** Finishes the row. The returned view is reused and valid until the next reset. */
    public BinaryRow complete() {
        return row.pointTo(buffer, 0, cursor);
    }

    /** Writes all values of a row in order (kind INSERT) and returns an owned copy. */
    public static BinaryRow toRow(RowType type, Object... values) {
        return toRow(type, RowKind.INSERT, values);
    }

    public static BinaryRow toRow(RowType type, RowKind kind, Object... values) {
        if (values.length != type.size()) {
            throw new IllegalArgumentException(
                    "Expected " + type.size() + " values for " + type + ", got " + values.length);
        }
        BinaryRowWriter writer = new BinaryRowWriter(type.size());
        writer.writeRowKind(kind);
        for (int i = 0; i < values.length; i++) {
            writer.write(i, values[i], type.type(i));
        }
        return writer.complete().copy();
    }

    public int arity() {
        return arity;
    }

    private int slot(int pos) {
        return nullBitsSize + (pos << 3);
    }

    private void setOffsetAndSize(int pos, int offset, long size) {
        LittleEndian.putLong(buffer, slot(pos), ((long) offset << 32) | size);
    }

    private void ensureCapacity(int extra) {
        int needed = cursor + extra;
        if (needed > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(needed, buffer.length * 2));
        }
    }

    private static int roundToWord(int bytes) {
        return (bytes + 7) & ~7;
    }
}
