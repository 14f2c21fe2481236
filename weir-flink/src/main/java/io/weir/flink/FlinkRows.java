package io.weir.flink;

import io.weir.data.BinaryRow;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

import java.util.Arrays;

/**
 * Moves rows between Flink and Weir without converting values: Flink's {@code BinaryRowData} and
 * Weir's {@link BinaryRow} have the same bytes (on a little-endian machine).
 */
public final class FlinkRows {
    private FlinkRows() {}

    /** Fails clearly on a big-endian machine, where Flink's row bytes differ from Weir's. */
    public static void checkByteOrder() {
        if (!BinaryRowData.LITTLE_ENDIAN) {
            throw new UnsupportedOperationException(
                    "Weir needs a little-endian machine: Flink's BinaryRowData uses native byte order");
        }
    }

    /** A Flink row over a Weir row's bytes (shared, not copied). */
    public static BinaryRowData toFlink(BinaryRow row) {
        BinaryRowData flink = new BinaryRowData(row.arity());
        flink.pointTo(MemorySegmentFactory.wrap(row.bytes()), row.offset(), row.sizeInBytes());
        return flink;
    }

    /**
     * Views Flink rows as Weir rows. A {@code BinaryRowData} in one heap segment is viewed in
     * place; any other row is first written in binary form by Flink's own row serializer
     * (specialised per field type, no reflection). The returned view is reused: valid until the
     * next call.
     */
    public static final class ToWeir {
        private final BinaryRow view;
        private final RowDataSerializer serializer;
        private byte[] copy = new byte[256];

        public ToWeir(RowType rowType) {
            checkByteOrder();
            this.view = new BinaryRow(rowType.getFieldCount());
            this.serializer = new RowDataSerializer(rowType);
        }

        public BinaryRow convert(RowData row) {
            BinaryRowData binary = row instanceof BinaryRowData b ? b : serializer.toBinaryRow(row);
            MemorySegment[] segments = binary.getSegments();
            int size = binary.getSizeInBytes();
            if (segments.length == 1 && !segments[0].isOffHeap()) {
                return view.pointTo(segments[0].getArray(), binary.getOffset(), size);
            }
            if (size > copy.length) {
                copy = Arrays.copyOf(copy, Math.max(size, copy.length * 2));
            }
            BinarySegmentUtils.copyToBytes(segments, binary.getOffset(), copy, 0, size);
            return view.pointTo(copy, 0, size);
        }
    }
}
