package io.weir.merge;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.types.DataType;

/** Copies one field of a row into a row being written, without going through Java objects. */
final class FieldCopier {
    private FieldCopier() {}

    static void copy(BinaryRowWriter target, int pos, BinaryRow source, DataType type) {
        if (source.isNullAt(pos)) {
            target.setNullAt(pos);
            return;
        }
        switch (type.root()) {
            case CHAR, VARCHAR, BINARY, VARBINARY ->
                    target.writeBinary(
                            pos,
                            source.bytes(),
                            source.varDataOffset(pos),
                            source.varDataLength(pos));
            case DECIMAL -> {
                if (type.precision() <= DataType.MAX_COMPACT_DECIMAL_PRECISION) {
                    target.writeLong(pos, source.getLong(pos));
                } else {
                    target.writeDecimal(
                            pos,
                            source.getDecimal(pos, type.precision(), type.scale()),
                            type.precision(),
                            type.scale());
                }
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                if (type.precision() <= DataType.MAX_COMPACT_TIMESTAMP_PRECISION) {
                    target.writeLong(pos, source.getLong(pos));
                } else {
                    target.writeTimestamp(
                            pos, source.getTimestamp(pos, type.precision()), type.precision());
                }
            }
                // The fixed-length types: the whole 8-byte slot, zero padding included.
            default -> target.writeLong(pos, source.getLong(pos));
        }
    }
}
