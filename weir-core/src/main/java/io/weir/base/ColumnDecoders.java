package io.weir.base;

import io.weir.data.BinaryRowWriter;
import io.weir.types.DataType;
import io.weir.util.LittleEndian;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.ParquetDecodingException;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The {@link ColumnDecoder} of each Weir type, as {@link ParquetTypes} stores it: each writes its
 * values exactly as {@link RowMaterializer} does (the two read paths give the same bytes).
 */
final class ColumnDecoders {
    private ColumnDecoders() {}

    /** The decoder of a column of a base file read as {@code type} into field {@code pos}. */
    static ColumnDecoder of(ColumnDescriptor column, DataType type, int pos) {
        return switch (type.root()) {
            case BOOLEAN -> new BooleanColumn(column, pos);
            case TINYINT -> new IntColumn(column, pos, IntColumn.BYTE);
            case SMALLINT -> new IntColumn(column, pos, IntColumn.SHORT);
            case INT, DATE, TIME -> new IntColumn(column, pos, IntColumn.INT);
            case FLOAT -> new FloatColumn(column, pos);
            case DOUBLE -> new DoubleColumn(column, pos);
            case BIGINT -> new LongColumn(column, pos);
            case DECIMAL -> {
                if (type.precision() <= ParquetTypes.MAX_INT32_DECIMAL_PRECISION) {
                    yield new IntColumn(
                            column, pos, IntColumn.LONG); // the slot is the unscaled long
                } else if (type.precision() <= ParquetTypes.MAX_INT64_DECIMAL_PRECISION) {
                    yield new LongColumn(column, pos);
                }
                yield new DecimalColumn(column, pos, type);
            }
            case TIMESTAMP, TIMESTAMP_LTZ ->
                    type.isFixedLength()
                            ? new LongColumn(column, pos)
                            : new TimestampColumn(column, pos, type);
            case CHAR, VARCHAR, BINARY, VARBINARY -> new BytesColumn(column, pos);
        };
    }

    private static final class BooleanColumn extends ColumnDecoder {
        private int bit; // of the next plain value, from the page's first value byte

        BooleanColumn(ColumnDescriptor column, int pos) {
            super(column, pos);
        }

        @Override
        void readDictionary(byte[] data, int from, int to, int size) {
            throw unsupported("a dictionary");
        }

        @Override
        void startPlain(int count) {
            checkPlainSize((count + 7) >>> 3, 1);
            bit = 0;
        }

        @Override
        void writePlain(BinaryRowWriter writer) {
            writer.writeBoolean(pos, (data[offset + (bit >>> 3)] & (1 << (bit & 7))) != 0);
            bit++;
        }

        @Override
        void writeEntry(BinaryRowWriter writer, int id) {
            if (id > 1) {
                throw new ParquetDecodingException("Boolean " + id + " in " + column());
            }
            writer.writeBoolean(pos, id != 0);
        }

        @Override
        boolean acceptsRleValues() {
            return true;
        }
    }

    /** INT32 values, written as a byte, a short, an int or (compact decimals) a long. */
    private static final class IntColumn extends ColumnDecoder {
        static final int BYTE = 0;
        static final int SHORT = 1;
        static final int INT = 2;
        static final int LONG = 3;

        private final int target;
        private int[] dictionary = new int[0];

        IntColumn(ColumnDescriptor column, int pos, int target) {
            super(column, pos);
            this.target = target;
        }

        @Override
        void readDictionary(byte[] data, int from, int to, int size) {
            checkDictionarySize(to - from, size, 4, column());
            dictionary = new int[size];
            for (int i = 0; i < size; i++) {
                dictionary[i] = LittleEndian.getInt(data, from + 4 * i);
            }
        }

        @Override
        void startPlain(int count) {
            checkPlainSize(count, 4);
        }

        @Override
        void writePlain(BinaryRowWriter writer) {
            put(writer, LittleEndian.getInt(data, offset));
            offset += 4;
        }

        @Override
        void writeEntry(BinaryRowWriter writer, int id) {
            put(writer, dictionary[id]);
        }

        @Override
        int integerWidth() {
            return 32;
        }

        @Override
        void writeDecoded(BinaryRowWriter writer, long value) {
            put(writer, (int) value);
        }

        private void put(BinaryRowWriter writer, int value) {
            switch (target) {
                case BYTE -> writer.writeByte(pos, (byte) value);
                case SHORT -> writer.writeShort(pos, (short) value);
                case INT -> writer.writeInt(pos, value);
                default -> writer.writeLong(pos, value);
            }
        }
    }

    /** INT64 values: BIGINT, TIMESTAMP(p &lt;= 3) and DECIMAL(p &lt;= 18) are the long itself. */
    private static class LongColumn extends ColumnDecoder {
        private long[] dictionary = new long[0];

        LongColumn(ColumnDescriptor column, int pos) {
            super(column, pos);
        }

        @Override
        final void readDictionary(byte[] data, int from, int to, int size) {
            checkDictionarySize(to - from, size, 8, column());
            dictionary = new long[size];
            for (int i = 0; i < size; i++) {
                dictionary[i] = LittleEndian.getLong(data, from + 8 * i);
            }
        }

        @Override
        final void startPlain(int count) {
            checkPlainSize(count, 8);
        }

        @Override
        final void writePlain(BinaryRowWriter writer) {
            put(writer, LittleEndian.getLong(data, offset));
            offset += 8;
        }

        @Override
        final void writeEntry(BinaryRowWriter writer, int id) {
            put(writer, dictionary[id]);
        }

        @Override
        final int integerWidth() {
            return 64;
        }

        @Override
        final void writeDecoded(BinaryRowWriter writer, long value) {
            put(writer, value);
        }

        void put(BinaryRowWriter writer, long value) {
            writer.writeLong(pos, value);
        }
    }

    /** TIMESTAMP(p &gt; 3): a Timestamp per value, as {@link BinaryRowWriter} takes it. */
    private static final class TimestampColumn extends LongColumn {
        private final DataType type;

        TimestampColumn(ColumnDescriptor column, int pos, DataType type) {
            super(column, pos);
            this.type = type;
        }

        @Override
        void put(BinaryRowWriter writer, long value) {
            writer.writeTimestamp(pos, ParquetTypes.toTimestamp(value, type), type.precision());
        }
    }

    private static final class FloatColumn extends ColumnDecoder {
        private float[] dictionary = new float[0];

        FloatColumn(ColumnDescriptor column, int pos) {
            super(column, pos);
        }

        @Override
        void readDictionary(byte[] data, int from, int to, int size) {
            checkDictionarySize(to - from, size, 4, column());
            dictionary = new float[size];
            for (int i = 0; i < size; i++) {
                dictionary[i] = Float.intBitsToFloat(LittleEndian.getInt(data, from + 4 * i));
            }
        }

        @Override
        void startPlain(int count) {
            checkPlainSize(count, 4);
        }

        @Override
        void writePlain(BinaryRowWriter writer) {
            writer.writeFloat(pos, Float.intBitsToFloat(LittleEndian.getInt(data, offset)));
            offset += 4;
        }

        @Override
        void writeEntry(BinaryRowWriter writer, int id) {
            writer.writeFloat(pos, dictionary[id]);
        }
    }

    private static final class DoubleColumn extends ColumnDecoder {
        private double[] dictionary = new double[0];

        DoubleColumn(ColumnDescriptor column, int pos) {
            super(column, pos);
        }

        @Override
        void readDictionary(byte[] data, int from, int to, int size) {
            checkDictionarySize(to - from, size, 8, column());
            dictionary = new double[size];
            for (int i = 0; i < size; i++) {
                dictionary[i] = Double.longBitsToDouble(LittleEndian.getLong(data, from + 8 * i));
            }
        }

        @Override
        void startPlain(int count) {
            checkPlainSize(count, 8);
        }

        @Override
        void writePlain(BinaryRowWriter writer) {
            writer.writeDouble(pos, Double.longBitsToDouble(LittleEndian.getLong(data, offset)));
            offset += 8;
        }

        @Override
        void writeEntry(BinaryRowWriter writer, int id) {
            writer.writeDouble(pos, dictionary[id]);
        }
    }

    /**
     * Strings and binaries: plain values are copied from the page into the row; a dictionary's
     * entries are copied once into one array.
     */
    private static final class BytesColumn extends ColumnDecoder {
        private byte[] dictionaryBytes = new byte[0];
        private int[] dictionaryOffsets = new int[1];

        BytesColumn(ColumnDescriptor column, int pos) {
            super(column, pos);
        }

        @Override
        void readDictionary(byte[] data, int from, int to, int size) {
            checkDictionarySize(to - from, size, 4, column()); // each value has a 4-byte length
            int[] offsets = new int[size + 1];
            int p = from;
            for (int i = 0; i < size; i++) {
                int length = length(data, p, to);
                p += 4;
                offsets[i + 1] = offsets[i] + length;
                p += length;
            }
            byte[] bytes = new byte[offsets[size]];
            p = from;
            for (int i = 0; i < size; i++) {
                int length = offsets[i + 1] - offsets[i];
                System.arraycopy(data, p + 4, bytes, offsets[i], length);
                p += 4 + length;
            }
            dictionaryBytes = bytes;
            dictionaryOffsets = offsets;
        }

        @Override
        void startPlain(int count) {}

        @Override
        void writePlain(BinaryRowWriter writer) {
            int length = length(data, offset, end);
            writer.writeBinary(pos, data, offset + 4, length);
            offset += 4 + length;
        }

        @Override
        void writeEntry(BinaryRowWriter writer, int id) {
            int start = dictionaryOffsets[id];
            writer.writeBinary(pos, dictionaryBytes, start, dictionaryOffsets[id + 1] - start);
        }

        /** The length of the value at {@code p}, checked against the bytes before {@code to}. */
        private int length(byte[] data, int p, int to) {
            if (to - p < 4) {
                throw new ParquetDecodingException("Page of " + column() + " ends in a value");
            }
            int length = LittleEndian.getInt(data, p);
            if (length < 0 || length > to - p - 4) {
                throw new ParquetDecodingException(
                        "Value of " + length + " bytes past the end of a page of " + column());
            }
            return length;
        }
    }

    /** DECIMAL(p &gt; 18): fixed-length big-endian two's complement, a BigDecimal per value. */
    private static final class DecimalColumn extends ColumnDecoder {
        private final int precision;
        private final int scale;
        private final int width;
        private BigDecimal[] dictionary = new BigDecimal[0];

        DecimalColumn(ColumnDescriptor column, int pos, DataType type) {
            super(column, pos);
            this.precision = type.precision();
            this.scale = type.scale();
            this.width = column.getPrimitiveType().getTypeLength();
        }

        @Override
        void readDictionary(byte[] data, int from, int to, int size) {
            checkDictionarySize(to - from, size, width, column());
            dictionary = new BigDecimal[size];
            for (int i = 0; i < size; i++) {
                dictionary[i] =
                        new BigDecimal(new BigInteger(data, from + width * i, width), scale);
            }
        }

        @Override
        void startPlain(int count) {
            checkPlainSize(count, width);
        }

        @Override
        void writePlain(BinaryRowWriter writer) {
            BigInteger unscaled = new BigInteger(data, offset, width);
            offset += width;
            writer.writeDecimal(pos, new BigDecimal(unscaled, scale), precision, scale);
        }

        @Override
        void writeEntry(BinaryRowWriter writer, int id) {
            writer.writeDecimal(pos, dictionary[id], precision, scale);
        }
    }

    private static void checkDictionarySize(int bytes, int size, int width, ColumnDescriptor c) {
        if ((long) size * width > bytes || size < 0) {
            throw new ParquetDecodingException(
                    "Dictionary of " + size + " values in " + bytes + " bytes of " + c);
        }
    }
}
