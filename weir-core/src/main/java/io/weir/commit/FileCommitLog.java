package io.weir.commit;

import io.weir.Commit;
import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.NoSuchTableException;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.TableAlreadyExistsException;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;
import io.weir.options.TableOptions;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;

/**
 * The {@link CommitLog} of a table stored as files under {@code <location>/_weir/} (docs/format.md
 * §6). Commits are published with {@link FileIO#writeIfAbsent}, so any file system with an atomic
 * create-if-absent works, and any number of instances, in any processes, can commit to one table.
 */
public final class FileCommitLog implements CommitLog {
    private static final Logger LOG = LoggerFactory.getLogger(FileCommitLog.class);

    /** Property of a ROLLBACK commit: the commit whose state it restores. */
    public static final String ROLLBACK_TO_PROPERTY = "rollback-to";

    /** Property of a ROLLBACK commit: the latest commit id before it. */
    public static final String ROLLED_BACK_FROM_PROPERTY = "rolled-back-from";

    /** Property of a ROLLBACK commit that repaired a damaged table: "true". */
    public static final String REPAIRED_PROPERTY = "repaired";

    private final MetadataFiles files;
    private final Clock clock;
    private final SchemaVersions schemas;
    private final StateLoader loader;
    // The key of the states this log shares with the other logs of its table; null: shares none.
    private final SharedStates.Key sharedKey;
    // The latest state, or, while the table is damaged, the latest readable one found below it.
    private volatile TableState current;
    // The latest commit id: current's, or, while damaged, the latest that exists or is proven.
    private volatile long head;
    // Non-null while the latest commit cannot be read (a damaged or missing commit file).
    private volatile CorruptFileException damage;

    private FileCommitLog(MetadataFiles files, Clock clock, TableMetadata first, boolean shared) {
        this.files = files;
        this.clock = clock;
        this.schemas = new SchemaVersions(files, clock, first);
        this.loader =
                new StateLoader(
                        files,
                        first::createdMillis,
                        () -> metadata().options().metadataCheckpointInterval());
        this.current = loader.empty();
        this.sharedKey = shared ? new SharedStates.Key(files.location(), first) : null;
    }

    /**
     * Creates a table: writes its first schema version ({@code schemas/0.json}). Commits nothing;
     * the table's first commit will be commit 1.
     *
     * @throws TableAlreadyExistsException if a table exists at the location
     */
    public static FileCommitLog create(FileIO io, String location, TableMetadata metadata) {
        return create(io, location, metadata, Clock.systemUTC());
    }

    /** Creates a table whose commit timestamps and retention decisions follow {@code clock}. */
    public static FileCommitLog create(
            FileIO io, String location, TableMetadata metadata, Clock clock) {
        ValidationException.check(
                metadata.schemaId() == 0,
                "Cannot create table at %s: its first schema id must be 0, not %s",
                location,
                metadata.schemaId());
        MetadataFiles files = new MetadataFiles(io, location);
        String path = files.paths().schema(0);
        TableLocationCheck.check(io, files.paths(), path);
        if (!files.writeSchema(metadata)) {
            throw new TableAlreadyExistsException(
                    "Cannot create table at " + location + ": a table exists there (" + path + ")");
        }
        SharedStates.forget(files.location());
        return new FileCommitLog(files, clock, metadata, true);
    }

    /**
     * Loads a table: its latest commit, from the latest checkpoint and the commits after it.
     *
     * @throws NoSuchTableException if there is no table at the location
     */
    public static FileCommitLog load(FileIO io, String location) {
        return load(io, location, Clock.systemUTC());
    }

    /** Loads a table whose commit timestamps and retention decisions follow {@code clock}. */
    public static FileCommitLog load(FileIO io, String location, Clock clock) {
        return load(io, location, clock, true);
    }

    /**
     * Loads a table into a log that shares no state with the other logs of this JVM ({@link
     * SharedStates}), as a log in another process: it reads every commit it learns of from its
     * file.
     */
    static FileCommitLog loadUnshared(FileIO io, String location, Clock clock) {
        return load(io, location, clock, false);
    }

    private static FileCommitLog load(FileIO io, String location, Clock clock, boolean shared) {
        MetadataFiles files = new MetadataFiles(io, location);
        TableMetadata first = files.readSchema(0);
        if (first == null) {
            throw new NoSuchTableException(
                    "Cannot load table at "
                            + files.location()
                            + ": no Weir table there (missing "
                            + files.paths().schema(0)
                            + ")");
        }
        FileCommitLog log = new FileCommitLog(files, clock, first, shared);
        log.settle(log.loader.findLatest(0));
        return log;
    }

    @Override
    public String location() {
        return files.location();
    }

    @Override
    public FileIO io() {
        return files.io();
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public TableState current() {
        CorruptFileException d = damage;
        if (d != null) {
            throw d.rethrown();
        }
        return current;
    }

    @Override
    public synchronized TableState refresh() {
        if (damage != null) {
            StateLoader.Head found = loader.findLatest(head);
            if (found.latest() != head || found.missing()) {
                settle(found);
            }
            return current();
        }
        TableState cur = current;
        StateLoader.Head found = loader.findLatest(cur.commitId());
        long latest = found.latest();
        if (found.missing()) {
            settle(found);
            return current();
        }
        if (latest == cur.commitId()) {
            return cur;
        }
        // Another log of this table in this JVM may have read or published the commits already.
        TableState shared = sharedKey == null ? null : SharedStates.newest(sharedKey);
        TableState next;
        if (shared != null && shared.commitId() == latest) {
            next = shared;
        } else {
            TableState from =
                    shared != null
                                    && shared.commitId() > cur.commitId()
                                    && shared.commitId() < latest
                            ? shared
                            : cur;
            // Far behind: a checkpoint is cheaper than replaying every missed commit.
            boolean farBehind = latest - from.commitId() > checkpointInterval();
            try {
                next = farBehind ? loader.load(latest) : loader.replay(from, latest);
            } catch (SnapshotExpiredException e) {
                // Commits after ours expired meanwhile: start from a checkpoint instead.
                next = loadLatest(latest);
            } catch (CorruptFileException e) {
                settle(found);
                return current();
            }
            next = share(next);
        }
        current = next;
        head = next.commitId();
        return next;
    }

    /**
     * The state this log last read or published, without I/O; null while the table is damaged. It
     * may be behind the table's latest: for a commit that finds that out by losing the race.
     */
    TableState lastKnown() {
        return damage == null ? current : null;
    }

    /**
     * Takes the result of a search for the latest commit: loads its state, or, if that cannot be
     * read (a commit file is damaged, or missing although proven), records the damage and keeps the
     * latest readable state below it, so that older snapshots stay readable while every read of the
     * latest fails with the damage (docs/table-services.md, "Damaged metadata").
     */
    private void settle(StateLoader.Head found) {
        if (found.missing()) {
            CorruptFileException e = loader.missing(found).withAdvice(repairAdvice());
            LOG.warn("Table {} is damaged: {}", location(), e.getMessage());
            damage = e;
            head = found.proven();
            current = readableBelow(found.latest() + 1);
            return;
        }
        try {
            // Read from the files even when another log shares this commit's state: damage there is
            // found on opening the table.
            TableState next = share(loadLatest(found.latest()));
            current = next;
            head = next.commitId();
            damage = null;
        } catch (CorruptFileException e) {
            CorruptFileException d = e.withAdvice(repairAdvice());
            LOG.warn("Table {} is damaged: {}", location(), d.getMessage());
            damage = d;
            head = found.latest();
            current = readableBelow(found.latest());
        }
    }

    /**
     * The latest state before {@code commitId} that can be read, for the schema of a damaged table;
     * the empty state if none of the last few can.
     */
    private TableState readableBelow(long commitId) {
        long earliest = loader.knownEarliestRetained();
        long floor =
                Math.max(
                        earliest,
                        commitId - 2L * metadata(0).options().metadataCheckpointInterval() - 1);
        for (long id = commitId - 1; id >= floor && id >= 0; id--) {
            try {
                return loader.load(id);
            } catch (CorruptFileException | SnapshotExpiredException e) {
                LOG.debug("State {} of table {} cannot be read either: {}", id, location(), e);
            }
        }
        return loader.empty();
    }

    /** How to repair a damaged table, for error messages. */
    String repairAdvice() {
        return "Older snapshots can still be read. Repair the table by rolling back to an intact"
                + " commit, which writes a new commit (never delete or edit metadata files by"
                + " hand): 'weir doctor --table "
                + location()
                + "' lists the intact commits, 'weir doctor --table "
                + location()
                + " --rollback-to <commit id>' (or Table.rollbackTo, or CALL"
                + " <catalog>.sys.rollback_to) repairs";
    }

    /** The latest commit id, while damaged the latest that exists or is proven; no I/O. */
    long head() {
        return head;
    }

    /** The damage that makes the latest commit unreadable, or null. */
    CorruptFileException damage() {
        return damage;
    }

    /**
     * The state as of commit {@code latest}, or of a later one if, while it was being read, newer
     * commits and an expiry passed it: a writer can commit and expire between our finding the
     * latest commit and reading it, but it cannot expire its own latest commit.
     */
    private TableState loadLatest(long latest) {
        while (true) {
            try {
                return loader.load(latest);
            } catch (SnapshotExpiredException e) {
                long newer = loader.findLatest(latest).latest();
                if (newer <= latest) {
                    throw e;
                }
                latest = newer;
            }
        }
    }

    @Override
    public TableMetadata metadata() {
        return metadata(current.schemaId());
    }

    @Override
    public TableMetadata metadata(int schemaId) {
        return schemas.get(schemaId);
    }

    @Override
    public List<Integer> schemaIds() {
        return schemas.ids();
    }

    @Override
    public TableMetadata addSchema(Schema schema, TableOptions options) {
        return schemas.add(schema, options);
    }

    @Override
    public TableState state(long commitId) {
        TableState cur = current;
        if (damage == null && commitId == cur.commitId()) {
            return cur;
        }
        checkExists(commitId);
        CorruptFileException d = damage;
        if (d != null && commitId == head) {
            throw d.rethrown();
        }
        cur = current;
        return d == null && commitId == cur.commitId() ? cur : loader.load(commitId);
    }

    @Override
    public long commitIdAsOf(long timestampMillis) {
        TableState cur = refresh();
        return new CommitTimeSearch(loader, location())
                .commitIdAsOf(cur, timestampMillis, metadata(0).createdMillis());
    }

    @Override
    public Commit commit(long commitId) {
        long latest = checkExists(commitId);
        if (commitId == 0) {
            throw new ValidationException(
                    "Cannot read commit 0 of table "
                            + location()
                            + ": commit ids start at 1 (0 is the table before its first commit)");
        }
        if (commitId < loader.knownEarliestRetained()) {
            throw loader.expired(commitId, loader.knownEarliestRetained());
        }
        return loader.require(commitId, latest);
    }

    @Override
    public long earliestRetainedCommit() {
        return loader.earliestRetained();
    }

    @Override
    public synchronized void retainFrom(long commitId) {
        TableState cur = refresh();
        ValidationException.check(
                commitId >= 1 && commitId <= cur.commitId(),
                "Cannot expire the snapshots of table %s before commit %s: valid commits are 1 to"
                        + " %s",
                location(),
                commitId,
                cur.commitId());
        if (commitId <= earliestRetainedCommit()) {
            return;
        }
        // The checkpoint first: once the marker says so, loading starts at or after it.
        TableState state = commitId == cur.commitId() ? cur : loader.load(commitId);
        try {
            files.writeCheckpoint(state);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot write checkpoint " + files.paths().checkpoint(commitId), e);
        }
        files.writeEarliestRetained(commitId, clock.millis());
        loader.retained(commitId);
    }

    @Override
    public List<Long> commitFileIds() {
        return files.listedIds(files.paths().commitsDir());
    }

    @Override
    public Commit commitIfPresent(long commitId) {
        return files.readCommit(commitId);
    }

    @Override
    public List<String> metadataFilesBefore(long commitId) {
        return files.metadataFilesBefore(commitId);
    }

    @Override
    public List<FileStatus> abandonedMetadataFiles(long olderThanMillis) {
        return files.temporaryFiles(olderThanMillis);
    }

    @Override
    public synchronized CommitOutcome rollbackTo(long commitId) {
        TableState latest = null;
        try {
            latest = refresh();
        } catch (CorruptFileException e) {
            // damaged: exactly what a rollback repairs
        }
        CommitOutcome outcome =
                new RollbackCommit(files, loader, clock).rollBack(commitId, latest, head, current);
        published(outcome.state());
        return outcome;
    }

    @Override
    public synchronized CommitOutcome commit(CommitRequest request) {
        return new CommitProducer(this, request, clock).commit();
    }

    @Override
    public String toString() {
        return "FileCommitLog{" + location() + ", " + current + "}";
    }

    MetadataFiles files() {
        return files;
    }

    /** Called once a commit landed; what follows it is best effort. */
    void published(TableState next) {
        current = share(next);
        head = next.commitId();
        damage = null;
        AfterCommitWrites.write(files, next, checkpointInterval());
    }

    /**
     * The latest commit id, refreshed if {@code commitId} is beyond the known one; checks the
     * range.
     */
    private long checkExists(long commitId) {
        if (commitId > head) {
            try {
                refresh();
            } catch (CorruptFileException e) {
                // damaged: the range below is still valid
            }
        }
        long latest = head;
        if (commitId > latest || commitId < 0) {
            throw new ValidationException(
                    "Cannot find commit "
                            + commitId
                            + " of table "
                            + location()
                            + ": valid commit ids are 0 to "
                            + latest);
        }
        return latest;
    }

    /** The state to hold for {@code state}'s commit: the shared one if there is one. */
    private TableState share(TableState state) {
        return sharedKey == null ? state : SharedStates.offer(sharedKey, state);
    }

    private int checkpointInterval() {
        return metadata().options().metadataCheckpointInterval();
    }
}
