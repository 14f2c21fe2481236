package io.weir.commit;

import io.weir.Commit;
import io.weir.TableMetadata;
import io.weir.exceptions.NoSuchTableException;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.TableAlreadyExistsException;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link CommitLog} of a table stored as files under {@code <location>/_weir/} (docs/format.md
 * §6). Commits are published with {@link FileIO#writeIfAbsent}, so any file system with an atomic
 * create-if-absent works, and any number of instances, in any processes, can commit to one table.
 */
public final class FileCommitLog implements CommitLog {
    private static final Logger LOG = LoggerFactory.getLogger(FileCommitLog.class);

    private final MetadataFiles files;
    private final Clock clock;
    private final Map<Integer, TableMetadata> schemas = new ConcurrentHashMap<>();
    private final StateLoader loader;
    private volatile TableState current;

    private FileCommitLog(MetadataFiles files, Clock clock, TableMetadata first) {
        this.files = files;
        this.clock = clock;
        schemas.put(first.schemaId(), first);
        this.loader =
                new StateLoader(
                        files,
                        first::createdMillis,
                        () -> metadata().options().metadataCheckpointInterval());
        this.current = loader.empty();
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
        byte[] json = TableMetadataParser.toJson(metadata).getBytes(StandardCharsets.UTF_8);
        boolean created;
        try {
            created = io.writeIfAbsent(path, json);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create table at " + location, e);
        }
        if (!created) {
            throw new TableAlreadyExistsException(
                    "Cannot create table at " + location + ": a table exists there (" + path + ")");
        }
        return new FileCommitLog(files, clock, metadata);
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
        FileCommitLog log = new FileCommitLog(files, clock, first);
        log.current = log.loadLatest(log.loader.findLatest(0));
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
        return current;
    }

    @Override
    public synchronized TableState refresh() {
        TableState cur = current;
        long latest = loader.findLatest(cur.commitId());
        if (latest == cur.commitId()) {
            return cur;
        }
        // Far behind: a checkpoint is cheaper than replaying every missed commit.
        boolean farBehind = latest - cur.commitId() > checkpointInterval();
        TableState next;
        try {
            next = farBehind ? loader.load(latest) : loader.replay(cur, latest);
        } catch (SnapshotExpiredException e) {
            // Commits after ours expired meanwhile: start from a checkpoint instead.
            next = loadLatest(latest);
        }
        current = next;
        return next;
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
                long newer = loader.findLatest(latest);
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
        TableMetadata m = schemas.get(schemaId);
        if (m == null) {
            m = files.readSchema(schemaId);
            if (m == null) {
                throw new ValidationException(
                        "Cannot find schema "
                                + schemaId
                                + " of table "
                                + location()
                                + ": missing "
                                + files.paths().schema(schemaId));
            }
            schemas.put(schemaId, m);
        }
        return m;
    }

    @Override
    public TableState state(long commitId) {
        TableState cur = current;
        if (commitId == cur.commitId()) {
            return cur;
        }
        cur = checkExists(commitId);
        return commitId == cur.commitId() ? cur : loader.load(commitId);
    }

    @Override
    public long commitIdAsOf(long timestampMillis) {
        TableState cur = refresh();
        if (cur.commitId() > 0 && cur.timestampMillis() <= timestampMillis) {
            return cur.commitId();
        }
        // Commit timestamps never decrease (see CommitProducer), so binary search works.
        long earliest = loader.earliestRetained();
        long lo = Math.max(1, earliest);
        long hi = cur.commitId();
        long found = 0;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            if (loader.require(mid, cur.commitId()).timestampMillis() <= timestampMillis) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found == 0 && earliest > 0) {
            throw new SnapshotExpiredException(
                    "Cannot find a retained commit of table "
                            + location()
                            + " as of "
                            + timestampMillis
                            + ": the table's state then has expired; the earliest retained commit "
                            + earliest
                            + " was made at "
                            + loader.require(earliest, cur.commitId()).timestampMillis(),
                    -1,
                    earliest);
        }
        long created = metadata(0).createdMillis();
        if (found == 0 && timestampMillis < created) {
            throw new ValidationException(
                    "Cannot find a commit of table "
                            + location()
                            + " as of "
                            + timestampMillis
                            + ": the table was created at "
                            + created);
        }
        return found;
    }

    @Override
    public Commit commit(long commitId) {
        TableState cur = checkExists(commitId);
        if (commitId == 0) {
            throw new ValidationException(
                    "Cannot read commit 0 of table "
                            + location()
                            + ": commit ids start at 1 (0 is the table before its first commit)");
        }
        if (commitId < loader.knownEarliestRetained()) {
            throw loader.expired(commitId, loader.knownEarliestRetained());
        }
        return loader.require(commitId, cur.commitId());
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
        String path = files.paths().checkpoint(commitId);
        try {
            files.io()
                    .writeIfAbsent(
                            path, CheckpointParser.toJson(state).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write checkpoint " + path, e);
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
    public synchronized CommitResult commit(CommitRequest request) {
        return new CommitProducer(this, request, clock).commit();
    }

    @Override
    public String toString() {
        return "FileCommitLog{" + location() + ", " + current + "}";
    }

    MetadataFiles files() {
        return files;
    }

    /** Called by {@link CommitProducer} once a commit landed; the rest is best effort. */
    void published(TableState next) {
        current = next;
        long id = next.commitId();
        if (id % checkpointInterval() == 0) {
            String path = files.paths().checkpoint(id);
            try {
                byte[] json = CheckpointParser.toJson(next).getBytes(StandardCharsets.UTF_8);
                files.io().writeIfAbsent(path, json);
            } catch (IOException | RuntimeException e) {
                LOG.warn("Cannot write checkpoint {}; loading will replay more commits", path, e);
            }
        }
        String hint = files.paths().latestHint();
        try {
            files.io().overwrite(hint, (id + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot update commit hint {}; readers will probe further", hint, e);
        }
    }

    /**
     * The latest state, refreshed if {@code commitId} is beyond the known one; checks the range.
     */
    private TableState checkExists(long commitId) {
        TableState cur = current;
        if (commitId > cur.commitId()) {
            cur = refresh();
        }
        if (commitId > cur.commitId() || commitId < 0) {
            throw new ValidationException(
                    "Cannot find commit "
                            + commitId
                            + " of table "
                            + location()
                            + ": valid commit ids are 0 to "
                            + cur.commitId());
        }
        return cur;
    }

    private int checkpointInterval() {
        return metadata().options().metadataCheckpointInterval();
    }
}
