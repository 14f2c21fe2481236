package io.weir.commit;

import io.weir.BucketLayout;
import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.Rescale;
import io.weir.TableMetadata;
import io.weir.exceptions.CommitConflictException;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.MissingFileException;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;
import io.weir.exceptions.WeirException;
import io.weir.options.TableOptions;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;

/**
 * The one commit loop (Iceberg's SnapshotProducer idea): resolve the request against the latest
 * state, publish commit {@code N + 1} with an atomic create-if-absent, and on a lost race reload
 * and try again with a randomized backoff.
 */
final class CommitProducer {
    private static final Logger LOG = LoggerFactory.getLogger(CommitProducer.class);
    private static final long MIN_WAIT_MILLIS = 5;
    private static final long MAX_WAIT_MILLIS = 1000;
    static final String EXPIRED_PROPERTY = "expired";

    private final FileCommitLog log;
    private final CommitRequest request;
    private final Clock clock;

    CommitProducer(FileCommitLog log, CommitRequest request, Clock clock) {
        this.log = log;
        this.request = request;
        this.clock = clock;
    }

    CommitOutcome commit() {
        int maxRetries = log.metadata().options().commitMaxRetries();
        // Optimistic: the state this log knows is usually the latest (a job's committer made the
        // previous commit itself), and the conditional create of the next commit file is then the
        // probe for a newer commit, so no request goes to finding the latest first. Only the
        // latest state decides: whatever the known state rejects or loses is tried on it again.
        TableState base = log.lastKnown();
        boolean latest = base == null;
        if (latest) {
            base = log.refresh();
        }
        for (int lost = 0; ; ) {
            if (alreadyCommitted(base)) {
                WriterCheckpoint w = base.writers().get(request.writerId());
                LOG.info(
                        "Checkpoint {} of writer {} is committed already (commit {} holds {}) in"
                                + " table {}",
                        request.checkpointId(),
                        request.writerId(),
                        w.commitId(),
                        w.checkpointId(),
                        log.location());
                return new CommitOutcome(earlierCommit(w, base), base, true);
            }
            if (lost == 0 && request.verifyAddedFiles()) {
                checkAddedFilesExist();
            }
            Commit commit;
            try {
                commit = resolve(base);
            } catch (RuntimeException e) {
                if (latest) {
                    throw e;
                }
                base = log.refresh();
                latest = true;
                continue;
            }
            Commit landed = publish(commit);
            if (landed == commit && !latest && landedBelowExpiry(commit)) {
                landed = null;
            }
            if (landed != null) {
                TableState next = base.apply(landed);
                log.published(next);
                return new CommitOutcome(landed, next, false);
            }
            if (latest) {
                // A race with another writer, not a state we knew to be old.
                if (lost >= maxRetries) {
                    throw new CommitConflictException(
                            String.format(
                                    "Cannot commit %s to table %s: lost the race for the next"
                                            + " commit id %d times (last tried commit %d; %s ="
                                            + " %d)",
                                    request,
                                    log.location(),
                                    lost + 1,
                                    commit.id(),
                                    TableOptions.COMMIT_MAX_RETRIES.key(),
                                    maxRetries));
                }
                LOG.debug(
                        "Lost the race for commit {} of table {} (attempt {}); retrying",
                        commit.id(),
                        log.location(),
                        lost + 1);
                backoff(lost);
                lost++;
            }
            base = log.refresh();
            latest = true;
        }
    }

    /**
     * Whether the commit file just created on a state not read afresh fell among expired commits:
     * the known commit {@code N} and {@code N + 1} expired while others committed, so the id was
     * free again. Expiry records the earliest retained commit before it deletes any commit file
     * (docs/format.md §6.7), so one read of that marker tells. Such a file is no commit of the
     * table; it is deleted, and the commit tried again on the latest state.
     */
    private boolean landedBelowExpiry(Commit commit) {
        long earliest;
        try {
            earliest = log.earliestRetainedCommit();
        } catch (RuntimeException e) {
            // The marker cannot be read now. The base commit's file tells as well: expiry deletes
            // commit files oldest first, so N + 1 was free only if N is gone too.
            long base = commit.id() - 1;
            if (base == 0 || commitFileExists(base, e)) {
                return false;
            }
            earliest = Long.MAX_VALUE;
        }
        if (earliest <= commit.id()) {
            return false;
        }
        String path = log.files().paths().commit(commit.id());
        LOG.warn(
                "Commit file {} of table {} was created on a state that has expired (the earliest"
                        + " retained commit is {}); deleting it and committing on the latest state",
                path,
                log.location(),
                earliest);
        try {
            log.files().io().delete(path);
        } catch (IOException | RuntimeException e) {
            // Below the earliest retained commit, no reader takes it for the table's; expiry
            // deletes it with the other expired commits.
            LOG.warn("Cannot delete {}; snapshot expiry will", path, e);
        }
        return true;
    }

    private boolean commitFileExists(long id, RuntimeException markerError) {
        String path = log.files().paths().commit(id);
        try {
            return log.files().io().exists(path);
        } catch (IOException | RuntimeException e) {
            e.addSuppressed(markerError);
            throw new CommitStateUnknownException(
                    String.format(
                            "Cannot tell whether commit %d of table %s counts: its file was"
                                    + " created on a state not read afresh, and neither the expiry"
                                    + " marker nor %s can be read to check that the state had not"
                                    + " expired. Reload the table before retrying, and do not"
                                    + " delete the commit's files",
                            id + 1, log.location(), path),
                    e);
        }
    }

    /**
     * The commit that holds the writer's last checkpoint; if it has expired (a job restored from an
     * old checkpoint), a stand-in without files (see {@link CommitOutcome}).
     */
    private Commit earlierCommit(WriterCheckpoint w, TableState base) {
        try {
            return log.commit(w.commitId());
        } catch (SnapshotExpiredException e) {
            return new Commit(
                    w.commitId(),
                    0,
                    CommitKind.APPEND,
                    base.schemaId(),
                    request.writerId(),
                    w.checkpointId(),
                    List.of(),
                    List.of(),
                    Map.of(EXPIRED_PROPERTY, "true"));
        }
    }

    /**
     * A file's schema version must not be newer than the one the commit puts in force (readers and
     * compaction read a snapshot with its own version), which only a writer started before a
     * rollback could break. Files of a keyed table must have been written for the bucket count of
     * their partition ({@link #checkBuckets}): after a rescale, a writer that started before it
     * would otherwise publish keys in the wrong buckets.
     */
    private void checkSchemas(List<DataFile> added, int schemaId, TableState base) {
        TableMetadata target = log.metadata(schemaId);
        for (DataFile f : added) {
            if (f.schemaId() > schemaId) {
                throw new ValidationException(
                        String.format(
                                "Cannot commit %s to table %s: file %s was written with schema %d,"
                                        + " newer than the table's schema %d; restart the writer",
                                request, log.location(), f.path(), f.schemaId(), schemaId));
            }
        }
        if (target.schema().hasPrimaryKey()) {
            checkBuckets(added, target, base);
        }
    }

    /**
     * Every live file of a partition has the partition's bucket count (docs/format.md §6.2), so
     * that a row is always in the file group its key hashes to. Added files must have the count the
     * partition has as of the base (a compaction keeps it); a partition without files takes the
     * table's {@code bucket} option. Only a rescale, which replaces every file of the partition,
     * changes it. One check per added file, at commit: writers never look counts up per row.
     */
    private void checkBuckets(List<DataFile> added, TableMetadata target, TableState base) {
        Map<Integer, TableMetadata> versions = new HashMap<>();
        IntFunction<TableMetadata> metadata = id -> versions.computeIfAbsent(id, log::metadata);
        boolean rescale = request.properties().containsKey(Rescale.COMMIT_PROPERTY);
        Map<Partition, Integer> partitionCounts = new HashMap<>();
        List<String> keys = target.schema().partitionKeys();
        for (DataFile f : added) {
            int written = BucketLayout.of(f, metadata);
            Integer expected = partitionCounts.get(f.partition());
            if (expected == null) {
                // An overwrite replaces the partition: it takes the option (a rescale, its count).
                boolean replaced =
                        request.overwriteAll()
                                || request.overwritePartitions().contains(f.partition());
                DataFile live = replaced ? null : base.anyFile(f.partition());
                expected =
                        live == null
                                ? (rescale ? written : target.options().bucket())
                                : BucketLayout.of(live, metadata);
                if (written != expected) {
                    throw new ValidationException(
                            bucketMismatch(f, written, expected, live == null, target, keys));
                }
                partitionCounts.put(f.partition(), expected);
            } else if (written != expected) {
                throw new ValidationException(
                        String.format(
                                "Cannot commit %s to table %s: files %s of partition %s were"
                                        + " laid out for %d and %d buckets; a partition has one"
                                        + " bucket count",
                                request,
                                log.location(),
                                f.path(),
                                f.partition().spec(keys),
                                expected,
                                written));
            }
        }
    }

    private String bucketMismatch(
            DataFile f,
            int written,
            int expected,
            boolean newPartition,
            TableMetadata target,
            List<String> keys) {
        int option = target.options().bucket();
        if (newPartition) {
            return String.format(
                    "Cannot commit %s to table %s: file %s was written for %d buckets, but the"
                            + " table has %d buckets now (it was rescaled); restart the writer so"
                            + " that it writes the new layout",
                    request, log.location(), f.path(), written, expected);
        }
        String partition = f.partition().spec(keys);
        if (option == expected) {
            return String.format(
                    "Cannot commit %s to table %s: file %s of partition %s was written for %d"
                            + " buckets, but the table has %d buckets now (it was rescaled);"
                            + " restart the writer so that it writes the new layout",
                    request, log.location(), f.path(), partition, written, expected);
        }
        return String.format(
                "Cannot commit %s to table %s: file %s of partition %s was written for %d buckets,"
                        + " but the partition has %d buckets (it was rescaled apart from the"
                        + " table, whose bucket option is %d): writers lay rows out by the"
                        + " option, so rescale partition %s to %d buckets (or the whole table to"
                        + " %d), then restart the writer",
                request,
                log.location(),
                f.path(),
                partition,
                written,
                expected,
                option,
                partition,
                option,
                expected);
    }

    /**
     * A commit must never publish a file that is not there: orphan removal with too short an age
     * could have deleted a file written for a checkpoint still in flight, and committing it would
     * make every later read fail. One existence check (a stat, or a HEAD on S3) per new file.
     */
    private void checkAddedFilesExist() {
        String root = log.location().endsWith("/") ? log.location() : log.location() + "/";
        for (DataFile file : request.added()) {
            String path = root + file.path();
            boolean exists;
            try {
                exists = log.files().io().exists(path);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot check that data file " + path + " exists before committing it", e);
            }
            if (!exists) {
                throw new MissingFileException(
                        String.format(
                                "Cannot commit %s to table %s: its data file %s does not exist"
                                        + " (deleted since it was written, e.g. by orphan removal"
                                        + " with too short an age); nothing was committed",
                                request, log.location(), path),
                        null);
            }
        }
    }

    private boolean alreadyCommitted(TableState base) {
        return request.writerId() != null
                && request.checkpointId() >= 0
                && base.lastCheckpointId(request.writerId()) >= request.checkpointId();
    }

    /** The commit the request makes on top of {@code base}. */
    Commit resolve(TableState base) {
        if (request.requiredSchemaId() >= 0 && base.schemaId() != request.requiredSchemaId()) {
            throw new CommitConflictException(
                    String.format(
                            "Cannot commit %s to table %s: it was prepared on schema %d, and"
                                    + " commit %d changed the schema to %d; run it again",
                            request,
                            log.location(),
                            request.requiredSchemaId(),
                            base.commitId(),
                            base.schemaId()));
        }
        if (request.requiredLatest() >= 0 && base.commitId() != request.requiredLatest()) {
            throw new CommitConflictException(
                    String.format(
                            "Cannot commit %s to table %s: it was prepared on commit %d, and commit"
                                    + " %d has landed since; run it again",
                            request, log.location(), request.requiredLatest(), base.commitId()));
        }
        Set<String> removed = new LinkedHashSet<>();
        for (String path : request.removed()) {
            if (!base.isLive(path)) {
                throw new CommitConflictException(
                        String.format(
                                "Cannot commit %s to table %s: file %s is not live as of commit %d"
                                        + " (a concurrent commit removed it, or it never existed)",
                                request, log.location(), path, base.commitId()));
            }
            removed.add(path);
        }
        // One partition per FLOAT/DOUBLE value, whatever text a writer's JDK gave it.
        PartitionIdentity partitions = PartitionIdentity.of(log.metadata().schema(), base);
        if (request.overwriteAll()) {
            base.files().forEach(f -> removed.add(f.path()));
        } else if (!request.overwritePartitions().isEmpty()) {
            Set<Partition> overwritten =
                    partitions == null
                            ? request.overwritePartitions()
                            : partitions.adoptAll(request.overwritePartitions());
            base.files(overwritten).forEach(f -> removed.add(f.path()));
        }
        long sequence = base.lastSequence();
        // Base files without a sequence (a bulk write's) get one new sequence per file group:
        // together they are one sorted run of the group, newer than every file before.
        Map<FileGroupId, Long> baseSequences = new HashMap<>();
        List<DataFile> added = new ArrayList<>(request.added().size());
        for (DataFile f :
                partitions == null ? request.added() : partitions.adoptAll(request.added())) {
            ValidationException.check(
                    !base.isLive(f.path()),
                    "Cannot commit %s to table %s: file %s is live already (as of commit %d)",
                    request,
                    log.location(),
                    f.path(),
                    base.commitId());
            // A compaction's log file (the merge of a group's newest runs) keeps the greatest
            // sequence it merged, like a compacted base: logs committed after its inputs stay
            // newer. Every other log file is new and gets the next sequence.
            boolean keeps = f.sequence() >= 0 && request.kind() == CommitKind.COMPACT;
            if (f.kind() == FileKind.LOG && !keeps) {
                added.add(f.withSequence(++sequence));
            } else if (f.kind() == FileKind.BASE && f.sequence() < 0) {
                Long shared = baseSequences.get(f.fileGroup());
                if (shared == null) {
                    shared = ++sequence;
                    baseSequences.put(f.fileGroup(), shared);
                }
                added.add(f.withSequence(shared));
            } else {
                // A compacted file takes the greatest sequence it merged: never a future one.
                ValidationException.check(
                        f.sequence() <= base.lastSequence(),
                        "Cannot commit %s to table %s: %s file %s has sequence %d, greater than"
                                + " the table's last sequence %d",
                        request,
                        log.location(),
                        f.kind() == FileKind.BASE ? "base" : "log",
                        f.path(),
                        f.sequence(),
                        base.lastSequence());
                added.add(f);
            }
        }
        int schemaId = request.schemaId() >= 0 ? request.schemaId() : base.schemaId();
        if (schemaId != base.schemaId()) {
            log.metadata(schemaId); // fails if the schema version does not exist
        }
        checkSchemas(added, schemaId, base);
        // Commit timestamps never decrease, so that time travel can binary-search them.
        long timestamp = Math.max(clock.millis(), base.timestampMillis());
        return new Commit(
                base.commitId() + 1,
                timestamp,
                request.kind(),
                schemaId,
                request.writerId(),
                request.checkpointId(),
                added,
                List.copyOf(removed),
                request.properties());
    }

    /**
     * Publishes the commit file. Returns the commit that now holds our change (ours, or the same
     * writer checkpoint published by an earlier attempt whose reply was lost), or null if another
     * commit won the id.
     */
    private Commit publish(Commit commit) {
        String path = log.files().paths().commit(commit.id());
        byte[] json = CommitParser.toJson(commit).getBytes(StandardCharsets.UTF_8);
        try {
            return log.files().io().writeIfAbsent(path, json) ? commit : null;
        } catch (IOException | UncheckedIOException e) {
            return afterPublishFailure(commit, path, json, e);
        }
    }

    /**
     * The write may or may not have happened. If the file exists, it tells: our bytes (or our
     * writer checkpoint) mean we landed; other content means we lost the id, and since the create
     * is atomic we can never land there later. Without the file we cannot tell.
     */
    private Commit afterPublishFailure(Commit commit, String path, byte[] json, Exception cause) {
        byte[] found;
        try {
            found = log.files().read(path);
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
            found = null;
        }
        if (found == null) {
            throw new CommitStateUnknownException(
                    String.format(
                            "Cannot tell whether commit %d of table %s landed: writing %s failed"
                                    + " (%s). Reload the table before retrying, and do not delete"
                                    + " the commit's files",
                            commit.id(), log.location(), path, cause),
                    cause);
        }
        if (Arrays.equals(found, json)) {
            return commit;
        }
        if (commit.writerId() != null && commit.checkpointId() >= 0) {
            try {
                Commit other =
                        CommitParser.fromJson(path, new String(found, StandardCharsets.UTF_8));
                if (Objects.equals(other.writerId(), commit.writerId())
                        && other.checkpointId() == commit.checkpointId()) {
                    return other;
                }
            } catch (CorruptFileException e) {
                cause.addSuppressed(e);
            }
        }
        LOG.info("Lost the race for {} after a write error: {}", path, cause.toString());
        return null;
    }

    private void backoff(int attempt) {
        long cap = Math.min(MAX_WAIT_MILLIS, MIN_WAIT_MILLIS << Math.min(attempt, 16));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WeirException(
                    "Cannot commit "
                            + request
                            + " to table "
                            + log.location()
                            + ": interrupted while waiting to retry; nothing was committed",
                    e);
        }
    }
}
