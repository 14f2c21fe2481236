package io.weir;

/**
 * Expires old snapshots and deletes the files that only they need: {@code
 * table.expireSnapshots().commit()}. The defaults come from the table options {@code
 * snapshot.num-retained.min}, {@code snapshot.num-retained.max} and {@code snapshot.time-retained};
 * live {@link SnapshotLeases reader leases} always win. See docs/table-services.md.
 *
 * <p>The earliest retained commit R is the greatest id such that
 *
 * <ul>
 *   <li>at least {@code min} commits are retained ({@code R <= latest - min + 1}; the latest commit
 *       is never expired),
 *   <li>no live lease is on a commit before R,
 * </ul>
 *
 * and, within these bounds, the least id such that at most {@code max} commits are retained and
 * every snapshot that was current at or after the cutoff ({@code now - time-retained}, or {@link
 * #expireOlderThan}) is retained: snapshot S expires by age only if commit {@code S + 1} was made
 * at or before the cutoff. R never moves backwards.
 *
 * <p>Expiry is not a commit: it changes no snapshot's content. A data file is deleted iff it is
 * live in no retained snapshot; commit and checkpoint files before R are deleted after the data
 * files. Any step may fail or the process may die: the table stays loadable, every retained
 * snapshot stays readable, and the next run finishes the work.
 *
 * <p>Run one expiry at a time per table (e.g. from the committer, or one maintenance job).
 */
public interface ExpireSnapshots {

    /**
     * Retains at least this many of the latest commits (overrides {@code
     * snapshot.num-retained.min}).
     */
    ExpireSnapshots retainLast(int count);

    /**
     * Expires snapshots superseded at or before this time (overrides {@code now -
     * snapshot.time-retained}): time travel to any time at or after it keeps working.
     */
    ExpireSnapshots expireOlderThan(long timestampMillis);

    /** Makes {@link #commit()} report what it would do, changing nothing. */
    ExpireSnapshots dryRun();

    /** What {@link #commit()} would do now; changes nothing. */
    ExpireSnapshotsResult apply();

    /**
     * Expires the snapshots and deletes their files (unless {@link #dryRun()}).
     *
     * @throws io.weir.exceptions.CorruptFileException if metadata the expiry reads is damaged
     * @throws java.io.UncheckedIOException if a file cannot be read, written or deleted; run again
     */
    ExpireSnapshotsResult commit();
}
