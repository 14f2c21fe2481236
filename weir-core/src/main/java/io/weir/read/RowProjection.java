package io.weir.read;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.types.DataType;
import io.weir.types.RowType;

/**
 * Copies some fields of rows into a reused row, field by field with their types resolved once. With
 * no projection the input row is returned as is (only its kind set, if asked).
 */
public final class RowProjection {
    private final int[] positions;
    private final DataType[] types;
    private final RowKind kind;
    private final BinaryRowWriter writer;

    /**
     * @param positions the fields to keep, in order, or null for all
     * @param kind the kind to give every row, or null to keep each row's own
     */
    public RowProjection(RowType inputType, int[] positions, RowKind kind) {
        this.positions = positions;
        this.kind = kind;
        if (positions == null) {
            this.types = null;
            this.writer = null;
        } else {
            this.types = new DataType[positions.length];
            for (int i = 0; i < positions.length; i++) {
                types[i] = inputType.type(positions[i]);
            }
            this.writer = new BinaryRowWriter(positions.length);
        }
    }

    /** The projected row; a reused view unless there is no projection. */
    public BinaryRow apply(BinaryRow row) {
        if (writer == null) {
            if (kind != null && row.rowKind() != kind) {
                row.setRowKind(kind);
            }
            return row;
        }
        writer.reset();
        writer.writeRowKind(kind != null ? kind : row.rowKind());
        for (int i = 0; i < positions.length; i++) {
            copyField(row, positions[i], i, types[i]);
        }
        return writer.complete();
    }

    private void copyField(BinaryRow from, int pos, int to, DataType type) {
        if (from.isNullAt(pos)) {
            writer.write(to, null, type);
            return;
        }
        switch (type.root()) {
            case BOOLEAN, TINYINT -> writer.writeByte(to, from.getByte(pos));
            case SMALLINT -> writer.writeShort(to, from.getShort(pos));
            case INT, DATE, TIME, FLOAT -> writer.writeInt(to, from.getInt(pos));
            case BIGINT, DOUBLE -> writer.writeLong(to, from.getLong(pos));
            case CHAR, VARCHAR, BINARY, VARBINARY ->
                    writer.writeBinary(
                            to, from.bytes(), from.varDataOffset(pos), from.varDataLength(pos));
            case DECIMAL -> {
                if (type.isFixedLength()) {
                    writer.writeLong(to, from.getLong(pos));
                } else {
                    int p = type.precision();
                    writer.writeDecimal(to, from.getDecimal(pos, p, type.scale()), p, type.scale());
                }
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                if (type.isFixedLength()) {
                    writer.writeLong(to, from.getLong(pos));
                } else {
                    int p = type.precision();
                    writer.writeTimestamp(to, from.getTimestamp(pos, p), p);
                }
            }
        }
    }
}
