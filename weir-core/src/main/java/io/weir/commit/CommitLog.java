package io.weir.commit;

import io.weir.Commit;
import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.exceptions.CommitConflictException;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;
import io.weir.options.TableOptions;

import java.time.Clock;
import java.util.List;

/**
 * The metadata of one table: its schema versions and its chain of commits 1, 2, 3, ... (dense), and
 * the only way to change the table. Weir's counterpart of Iceberg's {@code TableOperations}.
 *
 * <p>Contract of implementations:
 *
 * <ul>
 *   <li>A commit is published atomically: commit {@code N + 1} is created only if it does not
 *       exist, so concurrent committers (threads, processes, hosts) see exactly one of them win.
 *       Readers see a commit completely or not at all.
 *   <li>{@link #commit(CommitRequest)} resolves the request against the latest state on every
 *       attempt and retries a lost race (up to {@code commit.max-retries}). It must throw {@link
 *       CommitConflictException} when the request cannot apply to the latest state (a file to
 *       remove is no longer live) or the retries ran out; nothing was committed then.
 *   <li>It must throw {@link CommitStateUnknownException} when it cannot tell whether the commit
 *       landed. The caller must then not delete the commit's files: reloading the table tells.
 *   <li>A commit whose (writer id, checkpoint id) is not above the writer's last committed
 *       checkpoint changes nothing and reports {@link CommitOutcome#alreadyCommitted()}.
 *   <li>Loading never replays all commits: it starts from the latest checkpoint (full state) at or
 *       before the target commit.
 *   <li>A commit or checkpoint that the chain needs but that is missing or unreadable fails with an
 *       error naming the file ({@link CorruptFileException}); it is never skipped.
 *   <li>Snapshots before the {@linkplain #earliestRetainedCommit() earliest retained commit} are
 *       expired: asking for one fails with {@link SnapshotExpiredException}, and loading any
 *       retained snapshot reads no commit or checkpoint before it (docs/table-services.md).
 * </ul>
 *
 * <p>Instances are thread-safe.
 */
public interface CommitLog {

    /** The directory under the table location that holds the metadata. */
    String METADATA_DIR = MetadataPaths.METADATA_DIR;

    /** The table location (the directory that holds {@code _weir/}). */
    String location();

    FileIO io();

    /** The clock of commit timestamps, also the "now" of retention decisions and leases. */
    Clock clock();

    /** The latest state known to this instance, without any I/O. */
    TableState current();

    /** Reads commits that landed since {@link #current()} and returns the latest state. */
    TableState refresh();

    /** The schema and options in force as of {@link #current()}. */
    TableMetadata metadata();

    /** One schema version. */
    TableMetadata metadata(int schemaId);

    /** The ids of the schema versions written so far, ascending (listed, so current). */
    List<Integer> schemaIds();

    /**
     * Writes a new schema version: {@code schemaId} + 1 of the newest one written, with the given
     * schema and options. Nothing is committed: a commit that names it puts it in force.
     *
     * @throws io.weir.exceptions.CommitConflictException if another process wrote that version
     *     first
     */
    TableMetadata addSchema(Schema schema, TableOptions options);

    /**
     * The table as of a commit (time travel); 0 is the table before its first commit.
     *
     * @throws SnapshotExpiredException if the snapshot expired
     * @throws ValidationException if the commit does not exist (the message names the valid range)
     */
    TableState state(long commitId);

    /**
     * The latest commit whose timestamp is at or before {@code timestampMillis}; 0 if the table was
     * created by then but had no commit yet.
     *
     * @throws SnapshotExpiredException if the table's state at that time expired
     * @throws ValidationException if the table did not exist at that time
     */
    long commitIdAsOf(long timestampMillis);

    /**
     * Reads one commit.
     *
     * @throws SnapshotExpiredException if the commit expired
     * @throws ValidationException if the commit does not exist (the message names the valid range)
     */
    Commit commit(long commitId);

    /**
     * Commits a request atomically: resolves it against the latest state, publishes commit {@code
     * latest + 1}, and retries if another commit won that id.
     *
     * @throws CommitConflictException if a file to remove is not live in the latest state, or the
     *     retries ran out; nothing was committed
     * @throws CommitStateUnknownException if publishing failed in a way that leaves the outcome
     *     unknown
     * @throws ValidationException if the request does not fit the table (e.g. it adds a file that
     *     is live already, or names an unknown schema); nothing was committed
     */
    CommitOutcome commit(CommitRequest request);

    /**
     * Rolls the table back to an earlier commit: publishes a new {@link
     * io.weir.CommitKind#ROLLBACK} commit whose files are exactly those of snapshot {@code
     * commitId}. Also repairs a table whose newest commit files are damaged or missing: the new
     * commit takes an id above every commit file and checkpoint present or proven, and loading it
     * never reads the commits it abandons.
     *
     * @throws ValidationException if {@code commitId} is not before the latest commit
     * @throws SnapshotExpiredException if snapshot {@code commitId} expired
     * @throws CorruptFileException if snapshot {@code commitId} cannot be read either
     * @throws CommitConflictException if another commit took the id meanwhile
     */
    CommitOutcome rollbackTo(long commitId);

    // ---- Retention: the metadata side of snapshot expiry (docs/table-services.md) ----

    /**
     * The earliest retained commit: snapshots and commits before it are expired; 0 if nothing has
     * expired. Reads the expiry marker, so it is current.
     */
    long earliestRetainedCommit();

    /**
     * Expires the snapshots before {@code commitId}, on the metadata side only: makes sure a
     * checkpoint as of {@code commitId} exists, then records {@code commitId} as the earliest
     * retained commit. From then on loading and time travel to any retained snapshot read no commit
     * or checkpoint before it, so those may be deleted. Deletes nothing; never moves the earliest
     * retained commit backwards (an id at or below it changes nothing).
     *
     * @throws ValidationException if {@code commitId} is not between 1 and the latest commit
     */
    void retainFrom(long commitId);

    /**
     * The ids of the commit files that exist, ascending (expired ones not deleted yet included).
     */
    List<Long> commitFileIds();

    /**
     * Reads a commit file whether or not the commit expired, for services that clean up after
     * expired commits; null if the file does not exist.
     */
    Commit commitIfPresent(long commitId);

    /**
     * The commit and checkpoint files before {@code commitId} that still exist, in the order in
     * which expiry must delete them: checkpoints first, then commits from the oldest. Deleting in
     * this order keeps the commits from the oldest remaining one unbroken, which is what an
     * interrupted expiry needs to finish its work.
     */
    List<String> metadataFilesBefore(long commitId);

    /**
     * Temporary files of metadata writes whose writer died (never schemas, commits, checkpoints,
     * the hint, the expiry marker or leases), last modified before {@code olderThanMillis}.
     */
    List<FileStatus> abandonedMetadataFiles(long olderThanMillis);
}
