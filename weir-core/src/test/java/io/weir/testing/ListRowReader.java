package io.weir.testing;

import io.weir.data.BinaryRow;
import io.weir.data.RowReader;

import java.util.List;

/** A {@link RowReader} over rows in memory, for tests of readers that consume readers. */
public final class ListRowReader implements RowReader {
    private final List<BinaryRow> rows;
    private int next;
    private boolean closed;

    public ListRowReader(List<BinaryRow> rows) {
        this.rows = rows;
    }

    @Override
    public boolean next() {
        return next++ < rows.size();
    }

    @Override
    public BinaryRow row() {
        return rows.get(next - 1);
    }

    @Override
    public void close() {
        closed = true;
    }

    public boolean isClosed() {
        return closed;
    }
}
