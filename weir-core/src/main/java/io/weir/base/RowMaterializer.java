package io.weir.base;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.Timestamp;
import io.weir.types.DataType;
import io.weir.types.RowType;

import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.Type;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Assembles Parquet records into one reused {@link BinaryRow}: each column's converter writes its
 * value straight into a {@link BinaryRowWriter}, with no boxing. Fields whose converter was not
 * called for a record (null values, and columns the file does not have) are set to null when the
 * record ends.
 *
 * <p>Only DECIMAL(p &gt; 18) and TIMESTAMP(p &gt; 3) values allocate (a BigDecimal or a Timestamp),
 * because {@link BinaryRowWriter} takes them as objects.
 */
final class RowMaterializer extends RecordMaterializer<BinaryRow> {
    private final RowType rowType;
    private final BinaryRowWriter writer;
    private final boolean[] seen;
    private final int[] nullablePositions;
    private final Root root;
    private BinaryRow current;

    /**
     * @param rowType the type of the rows produced
     * @param columns the columns of the requested Parquet schema, in order
     * @param columnPositions for each of {@code columns}, the position in {@code rowType} it fills
     */
    RowMaterializer(RowType rowType, List<Type> columns, int[] columnPositions) {
        this.rowType = rowType;
        this.writer = new BinaryRowWriter(rowType.size());
        this.seen = new boolean[rowType.size()];
        boolean[] required = new boolean[rowType.size()];
        Converter[] converters = new Converter[columnPositions.length];
        for (int k = 0; k < columnPositions.length; k++) {
            int pos = columnPositions[k];
            required[pos] = columns.get(k).isRepetition(Type.Repetition.REQUIRED);
            converters[k] = converter(rowType.type(pos), pos);
        }
        // A field can be null unless the file has it as a required column. (The file, not the
        // table type, decides: a null must never read as a zero.)
        this.nullablePositions =
                IntStream.range(0, rowType.size()).filter(p -> !required[p]).toArray();
        this.root = new Root(converters);
    }

    @Override
    public BinaryRow getCurrentRecord() {
        return current;
    }

    @Override
    public GroupConverter getRootConverter() {
        return root;
    }

    /** A row with every field null, for projections that read no column of the file. */
    BinaryRow nullRow() {
        root.start();
        root.end();
        return current;
    }

    private void writeNull(int pos) {
        writer.write(pos, null, rowType.type(pos));
    }

    private final class Root extends GroupConverter {
        private final Converter[] converters;

        Root(Converter[] converters) {
            this.converters = converters;
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return converters[fieldIndex];
        }

        @Override
        public void start() {
            writer.reset();
            Arrays.fill(seen, false);
        }

        @Override
        public void end() {
            for (int pos : nullablePositions) {
                if (!seen[pos]) {
                    writeNull(pos);
                }
            }
            current = writer.complete();
        }
    }

    private Converter converter(DataType type, int pos) {
        return switch (type.root()) {
            case BOOLEAN ->
                    new FieldConverter(pos) {
                        @Override
                        public void addBoolean(boolean value) {
                            set(pos);
                            writer.writeBoolean(pos, value);
                        }
                    };
            case TINYINT ->
                    new FieldConverter(pos) {
                        @Override
                        public void addInt(int value) {
                            set(pos);
                            writer.writeByte(pos, (byte) value);
                        }
                    };
            case SMALLINT ->
                    new FieldConverter(pos) {
                        @Override
                        public void addInt(int value) {
                            set(pos);
                            writer.writeShort(pos, (short) value);
                        }
                    };
            case INT, DATE, TIME ->
                    new FieldConverter(pos) {
                        @Override
                        public void addInt(int value) {
                            set(pos);
                            writer.writeInt(pos, value);
                        }
                    };
            case FLOAT ->
                    new FieldConverter(pos) {
                        @Override
                        public void addFloat(float value) {
                            set(pos);
                            writer.writeFloat(pos, value);
                        }
                    };
            case DOUBLE ->
                    new FieldConverter(pos) {
                        @Override
                        public void addDouble(double value) {
                            set(pos);
                            writer.writeDouble(pos, value);
                        }
                    };
            case BIGINT -> new LongField(pos);
            case DECIMAL -> decimal(type, pos);
            case TIMESTAMP, TIMESTAMP_LTZ ->
                    type.isFixedLength() ? new LongField(pos) : new TimestampField(type, pos);
            case CHAR, VARCHAR, BINARY, VARBINARY -> new BytesField(pos);
        };
    }

    private Converter decimal(DataType type, int pos) {
        if (type.precision() <= ParquetTypes.MAX_INT32_DECIMAL_PRECISION) {
            return new FieldConverter(pos) {
                @Override
                public void addInt(int value) {
                    set(pos);
                    writer.writeLong(pos, value); // a compact decimal's slot is the unscaled long
                }
            };
        } else if (type.precision() <= ParquetTypes.MAX_INT64_DECIMAL_PRECISION) {
            return new LongField(pos);
        }
        int precision = type.precision();
        int scale = type.scale();
        return new FieldConverter(pos) {
            @Override
            public void addBinary(Binary value) {
                set(pos);
                BigInteger unscaled = new BigInteger(value.getBytesUnsafe());
                writer.writeDecimal(pos, new BigDecimal(unscaled, scale), precision, scale);
            }
        };
    }

    private void set(int pos) {
        seen[pos] = true;
    }

    /** A converter of one field; subclasses override the add method of their physical type. */
    private abstract static class FieldConverter extends PrimitiveConverter {
        final int pos;

        FieldConverter(int pos) {
            this.pos = pos;
        }
    }

    private final class LongField extends FieldConverter {
        LongField(int pos) {
            super(pos);
        }

        @Override
        public void addLong(long value) {
            set(pos);
            writer.writeLong(pos, value);
        }
    }

    private final class TimestampField extends FieldConverter {
        private final DataType type;

        TimestampField(DataType type, int pos) {
            super(pos);
            this.type = type;
        }

        @Override
        public void addLong(long value) {
            set(pos);
            Timestamp timestamp = ParquetTypes.toTimestamp(value, type);
            writer.writeTimestamp(pos, timestamp, type.precision());
        }
    }

    /**
     * Strings and binaries. With a dictionary page, its entries are copied once into one array, so
     * dictionary-encoded values are written without touching a {@link Binary} per value.
     */
    private final class BytesField extends FieldConverter {
        private byte[] dictionaryBytes;
        private int[] dictionaryOffsets;
        private byte[] scratch = new byte[0];

        BytesField(int pos) {
            super(pos);
        }

        @Override
        public boolean hasDictionarySupport() {
            return true;
        }

        @Override
        public void setDictionary(Dictionary dictionary) {
            int count = dictionary.getMaxId() + 1;
            int[] offsets = new int[count + 1];
            long total = 0;
            for (int id = 0; id < count; id++) {
                total += dictionary.decodeToBinary(id).length();
                if (total > Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException("Dictionary too large: " + total + " bytes");
                }
                offsets[id + 1] = (int) total;
            }
            byte[] bytes = new byte[(int) total];
            for (int id = 0; id < count; id++) {
                ByteBuffer entry = dictionary.decodeToBinary(id).toByteBuffer();
                entry.get(bytes, offsets[id], offsets[id + 1] - offsets[id]);
            }
            this.dictionaryBytes = bytes;
            this.dictionaryOffsets = offsets;
        }

        @Override
        public void addValueFromDictionary(int id) {
            set(pos);
            int start = dictionaryOffsets[id];
            writer.writeBinary(pos, dictionaryBytes, start, dictionaryOffsets[id + 1] - start);
        }

        @Override
        public void addBinary(Binary value) {
            set(pos);
            ByteBuffer buffer = value.toByteBuffer();
            int length = buffer.remaining();
            if (buffer.hasArray()) {
                writer.writeBinary(
                        pos, buffer.array(), buffer.arrayOffset() + buffer.position(), length);
            } else {
                if (scratch.length < length) {
                    scratch = new byte[Math.max(length, 2 * scratch.length)];
                }
                buffer.get(scratch, 0, length);
                writer.writeBinary(pos, scratch, 0, length);
            }
        }
    }
}
