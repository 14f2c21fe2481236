package io.weir.base;

import io.weir.util.LittleEndian;

import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.BooleanPlainValuesWriter;
import org.apache.parquet.column.values.plain.FixedLenByteArrayPlainValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Set;

/**
 * The value encoders of Parquet format 1.0 pages, as parquet-java's {@code
 * DefaultV1ValuesWriterFactory} chooses them (a dictionary, where enabled, falling back to plain
 * values), except that plain values go to {@link Plain}, which writes them into one array, and the
 * dictionaries of integer columns to {@link IntegerDictionaryWriter}: the pages are byte for byte
 * the same, without parquet-java's byte-at-a-time little-endian stream and hash map. Integer
 * columns named for it are written DELTA_BINARY_PACKED instead, without a dictionary, by {@link
 * IntegerDeltaWriter}: parquet-java's pages (blocks of 128 values in 4 miniblocks) in one array.
 */
final class ValueWriters implements ValuesWriterFactory {
    private final Set<String> deltaColumns;
    private ParquetProperties properties;

    /** Plain or dictionary values only. */
    ValueWriters() {
        this(Set.of());
    }

    /**
     * Plain or dictionary values, and DELTA_BINARY_PACKED for the INT32 and INT64 columns named.
     */
    ValueWriters(Set<String> deltaColumns) {
        this.deltaColumns = Set.copyOf(deltaColumns);
    }

    @Override
    public void initialize(ParquetProperties properties) {
        this.properties = properties;
    }

    @Override
    public ValuesWriter newValuesWriter(ColumnDescriptor column) {
        PrimitiveTypeName type = column.getPrimitiveType().getPrimitiveTypeName();
        if (type == PrimitiveTypeName.BOOLEAN) {
            return new BooleanPlainValuesWriter();
        } else if (type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
            // no dictionary for these in format 1.0
            return new FixedLenByteArrayPlainValuesWriter(
                    column.getPrimitiveType().getTypeLength(),
                    properties.getInitialSlabSize(),
                    properties.getPageSizeThreshold(),
                    properties.getAllocator());
        }
        if (deltaColumns.contains(column.getPath()[0])) {
            if (type != PrimitiveTypeName.INT32 && type != PrimitiveTypeName.INT64) {
                throw new IllegalArgumentException("Cannot delta-encode Parquet column " + column);
            }
            return new IntegerDeltaWriter(
                    type == PrimitiveTypeName.INT64, properties.getPageSizeThreshold());
        }
        Plain plain = new Plain(properties.getInitialSlabSize());
        return properties.isDictionaryEnabled(column)
                ? FallbackValuesWriter.of(dictionaryWriter(column, type), plain)
                : plain;
    }

    private DictionaryValuesWriter dictionaryWriter(
            ColumnDescriptor column, PrimitiveTypeName type) {
        int size = properties.getDictionaryPageSizeThreshold();
        Encoding encoding = Encoding.PLAIN_DICTIONARY;
        ByteBufferAllocator allocator = properties.getAllocator();
        return switch (type) {
            case INT32 -> new IntegerDictionaryWriter(false, size, allocator);
            case INT64 -> new IntegerDictionaryWriter(true, size, allocator);
            case FLOAT ->
                    new DictionaryValuesWriter.PlainFloatDictionaryValuesWriter(
                            size, encoding, encoding, allocator);
            case DOUBLE ->
                    new DictionaryValuesWriter.PlainDoubleDictionaryValuesWriter(
                            size, encoding, encoding, allocator);
            case BINARY ->
                    new DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter(
                            size, encoding, encoding, allocator);
            default -> // INT96: Weir never writes it
                    throw new IllegalArgumentException("Cannot write Parquet column " + column);
        };
    }

    /**
     * PLAIN values in a growing array: little-endian numbers, strings as a 4-byte length and the
     * bytes. Kept across pages (a page's bytes are copied by the page writer before {@link
     * #reset}).
     */
    static final class Plain extends ValuesWriter {
        private byte[] buffer;
        private int size;

        /** Receives {@link Binary#writeTo}: the bytes of a view without a copy of their own. */
        private final OutputStream sink =
                new OutputStream() {
                    @Override
                    public void write(int b) {
                        Plain.this.writeByte(b);
                    }

                    @Override
                    public void write(byte[] bytes, int offset, int length) {
                        ensure(length);
                        System.arraycopy(bytes, offset, buffer, size, length);
                        size += length;
                    }
                };

        Plain(int initialSize) {
            this.buffer = new byte[Math.max(initialSize, 16)];
        }

        private void ensure(int bytes) {
            if (buffer.length - size < bytes) {
                long wanted = Math.max((long) size + bytes, 2L * buffer.length);
                if ((long) size + bytes > Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException(
                            "Cannot buffer a Parquet page of more than 2 GiB");
                }
                buffer = Arrays.copyOf(buffer, (int) Math.min(wanted, Integer.MAX_VALUE - 8));
            }
        }

        @Override
        public void writeByte(int value) {
            ensure(1);
            buffer[size++] = (byte) value;
        }

        @Override
        public void writeInteger(int v) {
            ensure(Integer.BYTES);
            LittleEndian.putInt(buffer, size, v);
            size += Integer.BYTES;
        }

        @Override
        public void writeLong(long v) {
            ensure(Long.BYTES);
            LittleEndian.putLong(buffer, size, v);
            size += Long.BYTES;
        }

        @Override
        public void writeFloat(float v) {
            writeInteger(Float.floatToIntBits(v));
        }

        @Override
        public void writeDouble(double v) {
            writeLong(Double.doubleToLongBits(v));
        }

        @Override
        public void writeBytes(Binary v) {
            writeInteger(v.length());
            try {
                v.writeTo(sink);
            } catch (IOException e) {
                throw new IllegalStateException(e); // the sink does not throw
            }
        }

        /** A byte array value: {@code length} bytes of {@code bytes}, as {@link #writeBytes}. */
        void writeBytes(byte[] bytes, int offset, int length) {
            ensure(Integer.BYTES + length);
            LittleEndian.putInt(buffer, size, length);
            System.arraycopy(bytes, offset, buffer, size + Integer.BYTES, length);
            size += Integer.BYTES + length;
        }

        @Override
        public long getBufferedSize() {
            return size;
        }

        @Override
        public BytesInput getBytes() {
            return BytesInput.from(buffer, 0, size);
        }

        @Override
        public Encoding getEncoding() {
            return Encoding.PLAIN;
        }

        @Override
        public void reset() {
            size = 0;
        }

        @Override
        public long getAllocatedSize() {
            return buffer.length;
        }

        @Override
        public String memUsageString(String prefix) {
            return prefix + " PLAIN " + size + " of " + buffer.length + " bytes";
        }
    }
}
