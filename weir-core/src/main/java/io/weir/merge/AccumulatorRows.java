package io.weir.merge;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;

/**
 * Two row writers used in turn: the next accumulator is written while the current one, in the other
 * writer, is read. Nothing is allocated per record once the writers have grown.
 */
final class AccumulatorRows {
    private final BinaryRowWriter[] writers;
    private int next;
    private BinaryRow current;

    AccumulatorRows(int arity) {
        this.writers =
                new BinaryRowWriter[] {new BinaryRowWriter(arity), new BinaryRowWriter(arity)};
    }

    /** The accumulator, or null before the first {@link #finish()} of a key. */
    BinaryRow current() {
        return current;
    }

    void clear() {
        current = null;
    }

    /** A writer for the next accumulator, reset; not the one that holds {@link #current()}. */
    BinaryRowWriter start() {
        return writers[next].reset();
    }

    /** Makes the row written since {@link #start()} the accumulator. */
    BinaryRow finish() {
        current = writers[next].complete();
        next ^= 1;
        return current;
    }
}
