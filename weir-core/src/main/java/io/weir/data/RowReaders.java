package io.weir.data;

import java.util.List;
import java.util.function.Function;

/** Helpers for {@link RowReader}s. */
public final class RowReaders {
    private RowReaders() {}

    /** Reads the readers opened for each task, one after another. */
    public static <T> RowReader concat(List<T> tasks, Function<T, RowReader> open) {
        return new RowReader() {
            private int next;
            private RowReader current = RowReader.empty();

            @Override
            public boolean next() {
                while (!current.next()) {
                    current.close();
                    if (next >= tasks.size()) {
                        current = RowReader.empty();
                        return false;
                    }
                    current = open.apply(tasks.get(next++));
                }
                return true;
            }

            @Override
            public BinaryRow row() {
                return current.row();
            }

            @Override
            public void close() {
                current.close();
            }
        };
    }
}
