package io.weir;

/**
 * Changes the number of buckets of a table: rewrites every file group of the current snapshot into
 * the new number of buckets and commits the rewrite together with a new schema version whose {@code
 * bucket} option is the new count, so that readers see the old layout or the new one, never a mix.
 * A writer that started before fails its next commit with an error telling it to restart
 * (docs/rescale.md).
 */
public interface Rescale {

    /**
     * The property of a rescale's commit: {@code "<from> -> <to>"}. Such a commit changes no row;
     * readers of changes skip it.
     */
    String COMMIT_PROPERTY = "rescaled-buckets";

    /** The new number of buckets (1 to 32768). */
    Rescale buckets(int buckets);

    /** The local directory for the sort's spill files; by default {@code java.io.tmpdir}. */
    Rescale spillDirectory(String directory);

    /**
     * Rewrites and commits.
     *
     * @return the commit, or null if the table has that number of buckets already
     * @throws io.weir.exceptions.CommitConflictException if another commit landed while the table
     *     was rewritten (nothing was committed; run it again)
     */
    CommitResult commit();
}
