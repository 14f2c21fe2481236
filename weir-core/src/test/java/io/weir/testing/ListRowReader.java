package io.weir.testing;

import io.weir.data.BinaryRow;
import io.weir.data.RowReader;

import java.util.Arrays;
import java.util.List;

/**
 * A {@link RowReader} over rows in memory, for tests of readers that consume readers. By default
 * its rows stay valid; {@link #reusing} serves them, like a file reader, from one buffer that the
 * next row overwrites.
 */
public final class ListRowReader implements RowReader {
    private final List<BinaryRow> rows;
    private final BinaryRow view; // null: the rows themselves
    private byte[] buffer = new byte[0];
    private int next;
    private boolean closed;

    public ListRowReader(List<BinaryRow> rows) {
        this(rows, false);
    }

    private ListRowReader(List<BinaryRow> rows, boolean reuse) {
        this.rows = rows;
        this.view = reuse && !rows.isEmpty() ? new BinaryRow(rows.get(0).arity()) : null;
    }

    /** A reader whose row is valid only until its next {@link #next()}. */
    public static ListRowReader reusing(List<BinaryRow> rows) {
        return new ListRowReader(rows, true);
    }

    @Override
    public boolean next() {
        if (next++ >= rows.size()) {
            return false;
        }
        if (view != null) {
            BinaryRow row = rows.get(next - 1);
            Arrays.fill(buffer, (byte) 0x5A); // what a kept view of the last row would read
            if (buffer.length < row.sizeInBytes()) {
                buffer = new byte[row.sizeInBytes()];
            }
            System.arraycopy(row.bytes(), row.offset(), buffer, 0, row.sizeInBytes());
            view.pointTo(buffer, 0, row.sizeInBytes());
        }
        return true;
    }

    @Override
    public BinaryRow row() {
        return view != null ? view : rows.get(next - 1);
    }

    @Override
    public void close() {
        closed = true;
    }

    public boolean isClosed() {
        return closed;
    }
}
