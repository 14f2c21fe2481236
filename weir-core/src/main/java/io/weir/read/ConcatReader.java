package io.weir.read;

import io.weir.data.BinaryRow;
import io.weir.data.RowReader;
import io.weir.util.Closeables;

import java.util.List;

/** Reads several readers one after another; closes them all. */
final class ConcatReader implements RowReader {
    private final List<RowReader> readers;
    private int current;

    ConcatReader(List<RowReader> readers) {
        this.readers = readers;
    }

    @Override
    public boolean next() {
        while (current < readers.size()) {
            if (readers.get(current).next()) {
                return true;
            }
            current++;
        }
        return false;
    }

    @Override
    public BinaryRow row() {
        return readers.get(current).row();
    }

    @Override
    public void close() {
        Closeables.closeAll(readers);
    }
}
