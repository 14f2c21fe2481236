package io.weir.data;

import java.io.Closeable;

/**
 * Reads rows one at a time: {@code while (reader.next()) use(reader.row());}. The row is a reused
 * view, valid until the next call to {@link #next()}; {@code copy()} it to keep it. I/O failures
 * are thrown unchecked ({@link java.io.UncheckedIOException}, {@link
 * io.weir.exceptions.CorruptFileException}).
 */
public interface RowReader extends Closeable {
    boolean next();

    BinaryRow row();

    @Override
    void close();

    /** A reader of no rows. */
    static RowReader empty() {
        return new RowReader() {
            @Override
            public boolean next() {
                return false;
            }

            @Override
            public BinaryRow row() {
                throw new IllegalStateException("No row");
            }

            @Override
            public void close() {}
        };
    }
}
