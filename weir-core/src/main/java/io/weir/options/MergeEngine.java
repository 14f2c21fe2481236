package io.weir.options;

/** How the records of one primary key are folded into one (docs/merge-engines.md). */
public enum MergeEngine {
    /**
     * The latest record wins; with {@code sequence.field} the record with the greatest value of
     * that field wins (ties: the latest). A winning retraction removes the key.
     */
    DEDUPLICATE,
    /** The first record of a key is kept; later ones are ignored. */
    FIRST_ROW,
    /**
     * Each non-null field of a record overwrites the key's value; null fields do not. Sequence
     * groups order groups of fields by their own sequence fields.
     */
    PARTIAL_UPDATE,
    /** Each non-key field is folded by its {@code fields.<field>.aggregate-function}. */
    AGGREGATION
}
