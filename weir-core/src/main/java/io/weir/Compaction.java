package io.weir;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * Folds the log files of file groups into new base files sorted by primary key (Parquet, with
 * column statistics) of about {@code target-file-size}, in one commit: {@code
 * table.newCompaction().full().execute()}. Without {@link #full()} or {@link #wholeGroups()}, a due
 * keyed group is compacted incrementally: only its newest sorted runs are merged, into base files
 * in their place (and a log file with the retractions that must still hide older rows), unless the
 * change since its base is large enough to rewrite it. For append-only tables it bin-packs the
 * small files (logs and undersized base files) of each group into files of the target size. The
 * table's content does not change. Logs written to a group while it is being compacted stay and are
 * newer than the new base, so compaction never conflicts with ingestion; two compactions of the
 * same files conflict and the later fails.
 *
 * <p>A compaction holds a writer lease ({@link WriterLeases}) from before its first output file
 * until its commit has landed or failed, so that orphan removal, whatever its cutoff, never deletes
 * outputs not committed yet (docs/table-services.md, "Writer leases"): {@link #rewrite} and {@link
 * #execute} take it, {@link #commit} and {@link #abort} end it.
 */
public interface Compaction {
    /**
     * How long a compaction's writer lease lasts unless renewed; it is renewed when a third of this
     * passed (checked before each output file and before the commit). The lease of a compaction
     * whose process died protects files newer than its start for at most this long.
     */
    Duration LEASE_TTL = Duration.ofHours(1);

    /**
     * The size below which a base file is undersized (3/4 of {@code target-file-size}): packed by
     * compaction, and preferred by append-only writers (docs/partitions.md, "Small files").
     */
    static long undersizedBelow(long targetFileSize) {
        return targetFileSize / 4 * 3;
    }

    /**
     * Compact every file group that has any log file or at least two undersized base files (below
     * 3/4 of {@code target-file-size}).
     */
    Compaction full();

    /**
     * Rewrite each group compacted whole, into base files, as {@link #full()} does, but select the
     * groups as without it (due, or {@link #minLogFiles}). Without this or {@code full()}, a due
     * keyed group is compacted incrementally: often only its newest sorted runs are merged
     * (docs/table-services.md, "Incremental compaction").
     */
    Compaction wholeGroups();

    /**
     * Compact only file groups with at least this many log files (default: the table option {@code
     * compaction.max-log-files}), or whose logs hold {@code compaction.max-log-bytes} if that is
     * set. For append-only tables undersized base files count as log files, and a group whose small
     * files hold {@code target-file-size} is due too.
     */
    Compaction minLogFiles(int count);

    /** Compact only these file groups. */
    Compaction fileGroups(Predicate<FileGroupId> groups);

    /**
     * Plan around files (paths relative to the table, as in {@link DataFile#path()}) that another
     * compaction of this table is rewriting now. A keyed group that holds any of them merges only
     * its sorted runs newer than all of them, never the whole group: once more of those runs
     * accumulate than the group may hold while the other compaction runs (fewer than {@code
     * compaction.max-log-files}, and few enough that the group stays below {@code
     * compaction.stall-runs}). The two compactions then remove disjoint files, so both commits
     * land, and the run merged here stays newer than what the other writes. An append-only group
     * that holds any of them is not compacted. Other groups are planned as usual.
     */
    Compaction around(Set<String> filesInFlight);

    /**
     * Merge only the newest sorted runs of keyed groups, never a group's oldest run (its base) and
     * never a whole group: a group is merged as if its oldest run were in flight ({@link #around}),
     * once its runs after that reach the number {@code around} allows. For a compaction that runs
     * next to one that may rewrite the same groups' bases, and must stay short. Append-only groups
     * are not compacted.
     */
    Compaction newestRunsOnly();

    /** The file groups that would be compacted. */
    List<ScanTask> plan();

    /** Writes the new base files and commits them; returns the commit, or null if nothing to do. */
    CompactionResult execute();

    /**
     * Writes one planned file group ({@link #plan()}) as new base files and returns them, not yet
     * committed. For engines that rewrite groups in parallel tasks (thread-safe) and commit once
     * with {@link #commit}; on failure the partial outputs are deleted. Takes this compaction's
     * lease ({@link #lease()}) first; end it with {@link #commit} or {@link #abort}.
     */
    List<DataFile> rewrite(ScanTask task);

    /**
     * Rewrites planned file groups ({@link #plan()}) as {@link #rewrite} does, on up to {@code
     * threads} threads, and returns their outputs in the order of {@code tasks}, not yet committed:
     * {@link #commit} them. {@code onRewritten} hears of each group once its outputs are written,
     * on the thread that wrote them (progress, or a check that throws to stop).
     *
     * <p>If a rewrite or {@code onRewritten} throws, no further group starts, the running ones
     * finish, every output of the call is deleted, this compaction's lease ends (as {@link #abort}
     * ends it) and the first failure is thrown: a rewrite's as a {@link
     * io.weir.exceptions.FileGroupCompactionException} naming the group, {@code onRewritten}'s as
     * it is. An interrupt of the calling thread stops the call the same way, interrupting the
     * running rewrites, and throws {@link InterruptedException}.
     */
    List<DataFile> rewriteAll(
            List<ScanTask> tasks, int threads, BiConsumer<ScanTask, List<DataFile>> onRewritten)
            throws InterruptedException;

    /**
     * Commits rewritten groups as one COMPACT commit: removes every file of {@code tasks}, adds
     * {@code outputs} (all {@link #rewrite} results of those tasks). If another compaction replaced
     * some of these files first, throws {@link io.weir.exceptions.CommitConflictException} and
     * deletes {@code outputs}; they are deleted on any failure except {@link
     * io.weir.exceptions.CommitStateUnknownException}. Ends this compaction's lease, whatever the
     * outcome.
     */
    CompactionResult commit(List<ScanTask> tasks, List<DataFile> outputs);

    /**
     * Gives up rewritten groups that will not be committed: deletes {@code outputs} (best effort)
     * and ends this compaction's lease.
     */
    void abort(List<DataFile> outputs);

    /**
     * Takes this compaction's writer lease now if it holds none (renews it if due), and returns it.
     * {@link #rewrite} does this itself. An engine that rewrites groups in other processes calls it
     * where it plans, before any rewrite, and gives the lease to the compaction of each rewriting
     * and committing process with {@link #shareLease}; it ends the lease itself ({@link
     * WriterLeases#release}) if the commit never runs.
     */
    WriterLease lease();

    /**
     * Holds {@code lease}, taken by {@link #lease()} of another compaction of this table, instead
     * of one of its own: {@link #rewrite} renews it (same writer id and time), {@link #commit} and
     * {@link #abort} end it.
     */
    Compaction shareLease(WriterLease lease);
}
