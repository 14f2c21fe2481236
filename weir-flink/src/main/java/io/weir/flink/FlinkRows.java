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
     * place; any other row is first written in binary form, by a {@link RowDataWriter} or (for wide
     * decimals and fine timestamps) by Flink's own row serializer. The returned view is reused:
     * valid until the next call.
     */
    public static final class ToWeir {
        private final BinaryRow view;
        private final RowDataWriter writer;
        private final RowDataSerializer serializer;
        private byte[] copy = new byte[256];

        public ToWeir(RowType rowType) {
            checkByteOrder();
            this.view = new BinaryRow(rowType.getFieldCount());
            this.writer = RowDataWriter.forType(rowType);
            this.serializer = writer == null ? new RowDataSerializer(rowType) : null;
        }

        public BinaryRow convert(RowData row) {
            return view(binary(row));
        }

        /**
         * The row in Flink's binary form: the row itself if it is a {@code BinaryRowData}, else
         * written into a reused one (valid until the next call).
         */
        public BinaryRowData binary(RowData row) {
            if (row instanceof BinaryRowData b) {
                return b;
            }
            return writer != null ? writer.write(row) : serializer.toBinaryRow(row);
        }

        /** A Weir view of a binary row (reused: valid until the next call). */
        public BinaryRow view(BinaryRowData binary) {
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
