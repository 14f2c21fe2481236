package io.weir.data;

import io.weir.types.DataType;
import io.weir.util.LittleEndian;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A row in binary form: a reusable, zero-copy view over bytes, with exactly the layout of Flink's
 * {@code BinaryRowData} on a little-endian machine, so that rows move between Flink and Weir files
 * by copying bytes.
 *
 * <pre>
 * row        := header nullBits fixedSlot{arity} variablePart
 * header     := 1 byte, the {@link RowKind} byte value; it shares the first 8-byte word with the
 *               first 56 null bits
 * nullBits   := bit (i + 8) of the first nullBitsSize bytes is set iff field i is null, where
 *               nullBitsSize = ((arity + 63 + 8) / 64) * 8; bit k is bit (k % 8) of byte (k / 8)
 * fixedSlot  := 8 bytes per field, little-endian:
 *               BOOLEAN, TINYINT: 1 byte; SMALLINT: 2; INT, DATE, TIME(millis of day), FLOAT: 4;
 *               BIGINT, DOUBLE: 8; DECIMAL(p &lt;= 18): unscaled long;
 *               TIMESTAMP(p &lt;= 3): epoch millis; others: see below
 * variable   := for strings and binaries longer than 7 bytes, non-compact DECIMAL and TIMESTAMP:
 *               slot = (offset from row start &lt;&lt; 32) | length, data in the variable part
 *               (each value padded to a multiple of 8 bytes);
 *               strings and binaries of at most 7 bytes are inlined: bytes 0..6 of the slot hold
 *               the data, byte 7 holds 0x80 | length;
 *               DECIMAL(p &gt; 18): 16 bytes reserved, the unscaled value as big-endian two's
 *               complement, slot length = its byte count;
 *               TIMESTAMP(p &gt; 3): 8 bytes of epoch millis, slot length = nano of millisecond.
 * </pre>
 *
 * Strings are UTF-8. A null field has its null bit set and a zero slot (Flink's BinaryRowWriter may
 * also reserve variable-part bytes for a null non-compact DECIMAL or TIMESTAMP; readers ignore the
 * slot of a null field). The view does not know its field types: callers pass them where the
 * encoding depends on the type.
 */
public final class BinaryRow {
    private static final long INLINE_MARK = 0x80L << 56;

    private final int arity;
    private final int nullBitsSize;
    private byte[] bytes;
    private int offset;
    private int size;

    public BinaryRow(int arity) {
        if (arity < 0) {
            throw new IllegalArgumentException("Invalid arity " + arity);
        }
        this.arity = arity;
        this.nullBitsSize = nullBitsSizeInBytes(arity);
    }

    public static int nullBitsSizeInBytes(int arity) {
        return ((arity + 63 + 8) / 64) * 8;
    }

    /** The size of the header, null bits and fixed slots: the smallest possible row. */
    public static int fixedPartSize(int arity) {
        return nullBitsSizeInBytes(arity) + 8 * arity;
    }

    /** Points this view at {@code size} bytes of {@code bytes} starting at {@code offset}. */
    public BinaryRow pointTo(byte[] bytes, int offset, int size) {
        this.bytes = bytes;
        this.offset = offset;
        this.size = size;
        return this;
    }

    public int arity() {
        return arity;
    }

    /** The array this view reads; shared, not copied. */
    public byte[] bytes() {
        return bytes;
    }

    public int offset() {
        return offset;
    }

    public int sizeInBytes() {
        return size;
    }

    public RowKind rowKind() {
        return RowKind.fromByteValue(bytes[offset]);
    }

    public void setRowKind(RowKind kind) {
        bytes[offset] = kind.toByteValue();
    }

    public boolean isNullAt(int pos) {
        int bit = pos + 8;
        return (bytes[offset + (bit >>> 3)] & (1 << (bit & 7))) != 0;
    }

    /**
     * Sets a fixed-length INT or DATE field in place: clears its null bit and writes its slot (the
     * value, then zeros), as Flink's {@code BinaryRowData.setInt} does.
     */
    public void setInt(int pos, int value) {
        int bit = pos + 8;
        bytes[offset + (bit >>> 3)] &= (byte) ~(1 << (bit & 7));
        LittleEndian.putLong(bytes, fieldOffset(pos), Integer.toUnsignedLong(value));
    }

    /** Sets a fixed-length field to null in place: its null bit, and a zero slot. */
    public void setNullAt(int pos) {
        int bit = pos + 8;
        bytes[offset + (bit >>> 3)] |= (byte) (1 << (bit & 7));
        LittleEndian.putLong(bytes, fieldOffset(pos), 0L);
    }

    /** The absolute offset in {@link #bytes()} of field {@code pos}'s 8-byte slot. */
    public int fieldOffset(int pos) {
        return offset + nullBitsSize + (pos << 3);
    }

    public boolean getBoolean(int pos) {
        return bytes[fieldOffset(pos)] != 0;
    }

    public byte getByte(int pos) {
        return bytes[fieldOffset(pos)];
    }

    public short getShort(int pos) {
        return LittleEndian.getShort(bytes, fieldOffset(pos));
    }

    public int getInt(int pos) {
        return LittleEndian.getInt(bytes, fieldOffset(pos));
    }

    public long getLong(int pos) {
        return LittleEndian.getLong(bytes, fieldOffset(pos));
    }

    public float getFloat(int pos) {
        return Float.intBitsToFloat(getInt(pos));
    }

    public double getDouble(int pos) {
        return Double.longBitsToDouble(getLong(pos));
    }

    /**
     * The absolute offset in {@link #bytes()} of a string or binary field's data, whether inlined
     * in the slot or in the variable part.
     */
    public int varDataOffset(int pos) {
        int fieldOffset = fieldOffset(pos);
        long slot = LittleEndian.getLong(bytes, fieldOffset);
        return (slot & INLINE_MARK) != 0 ? fieldOffset : offset + (int) (slot >>> 32);
    }

    /** The length in bytes of a string or binary field's data. */
    public int varDataLength(int pos) {
        long slot = LittleEndian.getLong(bytes, fieldOffset(pos));
        return (slot & INLINE_MARK) != 0 ? (int) ((slot >>> 56) & 0x7F) : (int) slot;
    }

    public String getString(int pos) {
        return new String(bytes, varDataOffset(pos), varDataLength(pos), StandardCharsets.UTF_8);
    }

    public byte[] getBinary(int pos) {
        int start = varDataOffset(pos);
        return Arrays.copyOfRange(bytes, start, start + varDataLength(pos));
    }

    public BigDecimal getDecimal(int pos, int precision, int scale) {
        if (precision <= DataType.MAX_COMPACT_DECIMAL_PRECISION) {
            return BigDecimal.valueOf(getLong(pos), scale);
        }
        long slot = getLong(pos);
        int start = offset + (int) (slot >>> 32);
        int length = (int) slot;
        return new BigDecimal(new BigInteger(bytes, start, length), scale);
    }

    public Timestamp getTimestamp(int pos, int precision) {
        if (precision <= DataType.MAX_COMPACT_TIMESTAMP_PRECISION) {
            return Timestamp.ofMillis(getLong(pos));
        }
        long slot = getLong(pos);
        long millis = LittleEndian.getLong(bytes, offset + (int) (slot >>> 32));
        return new Timestamp(millis, (int) slot);
    }

    /**
     * The value of a field as a Java object, or null: Boolean, Byte, Short, Integer (INT, DATE as
     * epoch days, TIME as millis of day), Long, Float, Double, BigDecimal, String, byte[],
     * Timestamp. Allocates; not for the per-record path.
     */
    public Object get(int pos, DataType type) {
        if (isNullAt(pos)) {
            return null;
        }
        return switch (type.root()) {
            case BOOLEAN -> getBoolean(pos);
            case TINYINT -> getByte(pos);
            case SMALLINT -> getShort(pos);
            case INT, DATE, TIME -> getInt(pos);
            case BIGINT -> getLong(pos);
            case FLOAT -> getFloat(pos);
            case DOUBLE -> getDouble(pos);
            case DECIMAL -> getDecimal(pos, type.precision(), type.scale());
            case CHAR, VARCHAR -> getString(pos);
            case BINARY, VARBINARY -> getBinary(pos);
            case TIMESTAMP, TIMESTAMP_LTZ -> getTimestamp(pos, type.precision());
        };
    }

    /** A row with its own copy of the bytes. */
    public BinaryRow copy() {
        byte[] copy = Arrays.copyOfRange(bytes, offset, offset + size);
        return new BinaryRow(arity).pointTo(copy, 0, size);
    }

    /** Copies this row's bytes to {@code target} at {@code targetOffset}. */
    public void copyTo(byte[] target, int targetOffset) {
        System.arraycopy(bytes, offset, target, targetOffset, size);
    }

    /** Equal when the bytes are equal (the same values written the same way). */
    @Override
    public boolean equals(Object o) {
        return o instanceof BinaryRow other
                && arity == other.arity
                && Arrays.equals(
                        bytes,
                        offset,
                        offset + size,
                        other.bytes,
                        other.offset,
                        other.offset + other.size);
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (int i = offset; i < offset + size; i++) {
            h = 31 * h + bytes[i];
        }
        return h;
    }

    @Override
    public String toString() {
        return "BinaryRow{arity=" + arity + ", size=" + size + "}";
    }
}
