package io.weir;

import java.util.Map;

/**
 * Changes the number of buckets of a table, or of one partition of it, in one commit, so that
 * readers see the old layout or the new one, never a mix (docs/rescale.md).
 *
 * <p>Of the table: rewrites every partition whose count differs into the new count and commits the
 * rewrite together with a new schema version whose {@code bucket} option is the new count.
 *
 * <p>Of one partition ({@link #partition}): rewrites that partition only; the table's {@code
 * bucket} option, which writers and new partitions follow, stays. The partition's files record
 * their count (docs/format.md §6.2).
 *
 * <p>A writer whose layout differs from a partition's fails its next commit into that partition,
 * with an error saying what to do; no row is ever committed into a wrong bucket.
 */
public interface Rescale {

    /**
     * The property of a rescale's commit: {@code "<from> -> <to>"}. Such a commit changes no row;
     * readers of changes skip it.
     */
    String COMMIT_PROPERTY = "rescaled-buckets";

    /** The commit property of a rescale of one partition: the partition, {@code k=v[,k2=v2]}. */
    String PARTITION_PROPERTY = "rescaled-partition";

    /**
     * The new number of buckets (1 to 32768). Required for the whole table; for one partition, by
     * default the table's {@code bucket} option (as Paimon's rescale procedure).
     */
    Rescale buckets(int buckets);

    /**
     * Rescales only this partition: a value for every partition key, as canonical texts (docs/
     * format.md §2.3; {@value Partition#NULL_TEXT} for null), e.g. {@code {dt=2024-01-01}}. The
     * partition must have rows; the table must be keyed and partitioned.
     */
    Rescale partition(Map<String, String> partition);

    /** {@link #partition(Map)} from its text form {@code k=v[,k2=v2]} (the CLI's and SQL's). */
    Rescale partition(String spec);

    /** The local directory for the sort's spill files; by default {@code java.io.tmpdir}. */
    Rescale spillDirectory(String directory);

    /**
     * Rewrites and commits.
     *
     * @return the commit, or null if the table (or partition) has that number of buckets already
     * @throws io.weir.exceptions.CommitConflictException if another commit landed while the table
     *     was rewritten (nothing was committed; run it again)
     */
    CommitResult commit();
}
