package io.weir.read;

import io.weir.data.BinaryRow;

import java.util.Arrays;

/** Holds a copy of one row in a reusable array: keeps a row past its reader's next call. */
final class RowBuffer {
    private final BinaryRow row;
    private byte[] bytes = new byte[256];

    RowBuffer(int arity) {
        this.row = new BinaryRow(arity);
    }

    BinaryRow set(BinaryRow source) {
        int size = source.sizeInBytes();
        if (size > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(size, bytes.length * 2));
        }
        source.copyTo(bytes, 0);
        return row.pointTo(bytes, 0, size);
    }

    BinaryRow row() {
        return row;
    }
}
