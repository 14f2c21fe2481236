package io.weir;

import java.time.Duration;

/**
 * Deletes files under the table location that no metadata references: files of writes that failed
 * or were aborted (a writer's files that were never committed, a failed compaction's outputs) and
 * temporary files of interrupted metadata writes: {@code table.removeOrphanFiles().execute()}.
 *
 * <p>A file is an orphan iff it is not live in the latest snapshot, no commit file that still
 * exists adds or removes it, it is not part of the table's metadata ({@code _weir/}: only temporary
 * files there can be orphans, never schemas, commits, checkpoints, markers or live leases), it was
 * last modified before the cutoff, and no live {@link WriterLeases writer lease} covers it. Writer
 * leases protect the files of writes in flight whose writers hold them (the Flink sink's); for
 * other writers the cutoff must be older than the longest time between writing a file and
 * committing it. See docs/table-services.md.
 */
public interface RemoveOrphanFiles {
    /**
     * The least age of a file that orphan removal may delete, everywhere an age is given (the table
     * option {@code orphan.older-than}, {@link #olderThan(Duration)}, {@code weir clean
     * --orphans-older-than}, the {@code remove_orphan_files} procedure): a younger file may belong
     * to a write whose commit is still to come.
     */
    Duration MIN_AGE = Duration.ofMinutes(1);

    /**
     * Deletes only files last modified longer ago than {@code age} (default: the table option
     * {@code orphan.older-than}).
     *
     * @throws io.weir.exceptions.ValidationException if {@code age} is below {@link #MIN_AGE}
     */
    RemoveOrphanFiles olderThan(Duration age);

    /**
     * Deletes only files last modified before this time, with no floor: for tools and tests that
     * know that no write is in flight. Prefer {@link #olderThan(Duration)}.
     */
    RemoveOrphanFiles olderThan(long timestampMillis);

    /** Finds the orphans but deletes nothing. */
    RemoveOrphanFiles dryRun();

    /**
     * Finds and (unless {@link #dryRun()}) deletes the orphans.
     *
     * @throws java.io.UncheckedIOException if listing, reading metadata or deleting fails
     */
    RemoveOrphanFilesResult execute();
}
