package io.weir.options;

/** How records with the same primary key are folded into one. */
public enum MergeEngine {
    /**
     * The latest record wins; with {@code sequence.field} the record with the greatest value of
     * that field wins (ties: the latest). A winning delete removes the key.
     */
    DEDUPLICATE
}
