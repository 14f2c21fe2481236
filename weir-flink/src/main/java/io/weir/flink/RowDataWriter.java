package io.weir.flink;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.types.DataType;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Writes a Flink row that is not yet binary (a {@code GenericRowData} from a source or a planner
 * operator) in binary form, one typed write per field. Flink's own {@code
 * RowDataSerializer.toBinaryRow} reads every field through a {@code FieldGetter} that boxes it and
 * writes it through a switch on its logical type: an allocation per numeric field and two
 * megamorphic calls. Here a field costs one switch on a precomputed code and one typed read.
 *
 * <p>Only types whose binary form is a fixed slot or plain bytes are written here (compact decimals
 * and timestamps included); {@link #forType} returns null for a row type with any other. The bytes
 * are those of Flink's writer (FlinkRowsTest compares them).
 */
final class RowDataWriter {
    private static final int BOOLEAN = 0;
    private static final int BYTE = 1;
    private static final int SHORT = 2;
    private static final int INT = 3;
    private static final int LONG = 4;
    private static final int FLOAT = 5;
    private static final int DOUBLE = 6;
    private static final int STRING = 7;
    private static final int BYTES = 8;
    private static final int DECIMAL = 9;
    private static final int TIMESTAMP = 10;

    private final int[] codes;
    private final int[] precisions;
    private final int[] scales;
    private final BinaryRowWriter writer;
    private final BinaryRowData binary;
    private byte[] wrapped;
    private MemorySegment segment;

    private RowDataWriter(io.weir.types.RowType type) {
        int arity = type.size();
        this.codes = new int[arity];
        this.precisions = new int[arity];
        this.scales = new int[arity];
        for (int i = 0; i < arity; i++) {
            DataType field = type.type(i);
            codes[i] = code(field);
            precisions[i] = field.precision();
            scales[i] = field.scale();
        }
        this.writer = new BinaryRowWriter(arity, 256);
        this.binary = new BinaryRowData(arity);
    }

    /** A writer for rows of this type, or null if a field needs Flink's general writer. */
    static RowDataWriter forType(RowType rowType) {
        io.weir.types.RowType type = FlinkTypes.toWeir(rowType);
        for (int i = 0; i < type.size(); i++) {
            if (code(type.type(i)) < 0) {
                return null;
            }
        }
        return new RowDataWriter(type);
    }

    private static int code(DataType type) {
        return switch (type.root()) {
            case BOOLEAN -> BOOLEAN;
            case TINYINT -> BYTE;
            case SMALLINT -> SHORT;
            case INT, DATE, TIME -> INT;
            case BIGINT -> LONG;
            case FLOAT -> FLOAT;
            case DOUBLE -> DOUBLE;
            case CHAR, VARCHAR -> STRING;
            case BINARY, VARBINARY -> BYTES;
            case DECIMAL ->
                    type.precision() <= DataType.MAX_COMPACT_DECIMAL_PRECISION ? DECIMAL : -1;
            case TIMESTAMP, TIMESTAMP_LTZ ->
                    type.precision() <= DataType.MAX_COMPACT_TIMESTAMP_PRECISION ? TIMESTAMP : -1;
        };
    }

    /** The row in binary form, in a reused buffer: valid until the next call. */
    BinaryRowData write(RowData row) {
        BinaryRowWriter w = writer.reset();
        w.writeRowKind(RowKind.fromByteValue(row.getRowKind().toByteValue()));
        int[] c = codes;
        for (int i = 0; i < c.length; i++) {
            if (row.isNullAt(i)) {
                w.setNullAt(i);
                continue;
            }
            switch (c[i]) {
                case BOOLEAN -> w.writeBoolean(i, row.getBoolean(i));
                case BYTE -> w.writeByte(i, row.getByte(i));
                case SHORT -> w.writeShort(i, row.getShort(i));
                case INT -> w.writeInt(i, row.getInt(i));
                case LONG -> w.writeLong(i, row.getLong(i));
                case FLOAT -> w.writeFloat(i, row.getFloat(i));
                case DOUBLE -> w.writeDouble(i, row.getDouble(i));
                case STRING -> writeString(w, i, row.getString(i));
                case BYTES -> w.writeBinary(i, row.getBinary(i));
                case DECIMAL ->
                        w.writeLong(
                                i, row.getDecimal(i, precisions[i], scales[i]).toUnscaledLong());
                default -> w.writeLong(i, row.getTimestamp(i, precisions[i]).getMillisecond());
            }
        }
        BinaryRow done = w.complete();
        if (done.bytes() != wrapped) { // the buffer grew
            wrapped = done.bytes();
            segment = MemorySegmentFactory.wrap(wrapped);
        }
        binary.pointTo(segment, 0, done.sizeInBytes());
        return binary;
    }

    private static void writeString(BinaryRowWriter w, int pos, StringData value) {
        if (value instanceof BinaryStringData s) {
            s.ensureMaterialized(); // a string made from a java.lang.String encodes it once
            MemorySegment[] segments = s.getSegments();
            if (segments.length == 1 && !segments[0].isOffHeap()) {
                w.writeBinary(pos, segments[0].getArray(), s.getOffset(), s.getSizeInBytes());
                return;
            }
        }
        w.writeBinary(pos, value.toBytes());
    }
}
