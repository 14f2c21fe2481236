package io.weir.util;

import io.weir.data.BinaryRow;

import java.util.Arrays;

/** Holds a copy of one row in a reusable array: keeps a row past its reader's next call. */
public final class RowBuffer {
    private final BinaryRow row;
    private byte[] bytes = new byte[256];

    public RowBuffer(int arity) {
        this.row = new BinaryRow(arity);
    }

    /** Copies {@code source} and returns the copy. */
    public BinaryRow set(BinaryRow source) {
        int size = source.sizeInBytes();
        if (size > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(size, bytes.length * 2));
        }
        source.copyTo(bytes, 0);
        return row.pointTo(bytes, 0, size);
    }

    public BinaryRow row() {
        return row;
    }
}
