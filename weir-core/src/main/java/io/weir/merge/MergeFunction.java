package io.weir.merge;

import io.weir.data.BinaryRow;

/**
 * Folds the records of one primary key into the key's one record, by the table's {@code
 * merge-engine}. The one rule of a keyed table: the writer's flush, the bulk writer, merge-on-read
 * and compaction all fold with it, so a key reads the same whichever of them folded it first.
 *
 * <p>Usage, per key: {@link #reset()}, then {@link #add} for each of the key's records oldest
 * first, then {@link #result()}. A result whose kind is a retraction ({@link
 * io.weir.data.RowKind#isRetraction}) means the key is gone; a caller that folds for a later merge
 * (a log file) keeps it, so that it still hides the key's older records.
 */
public interface MergeFunction {

    /** Starts a new key. */
    void reset();

    /**
     * Adds the key's next record. The row must stay valid until the next {@link #reset()} if the
     * function was created for rows that stay valid; otherwise the function copies what it keeps.
     */
    void add(BinaryRow row);

    /** The key's record so far: valid until the next {@link #add} or {@link #reset()}. */
    BinaryRow result();

    /**
     * Whether a {@link #result()} stays valid after the next {@link #reset()} as long as the rows
     * added stay valid: when it is a view of an added row rather than the function's own memory.
     */
    boolean resultStaysValid();
}
