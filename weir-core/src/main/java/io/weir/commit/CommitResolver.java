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
import io.weir.exceptions.MissingFileException;
import io.weir.exceptions.ValidationException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Steps 3 to 5 of the commit protocol (docs/format.md §6.5): what a request makes on top of a base,
 * and every check that rejects it there. Kept apart from {@link CommitProducer}'s loop so that the
 * loop reads as the protocol's retry rules, and a resolution is what a test can build alone.
 */
final class CommitResolver {
    private final FileCommitLog log;
    private final CommitRequest request;
    private final Clock clock;

    CommitResolver(FileCommitLog log, CommitRequest request, Clock clock) {
        this.log = log;
        this.request = request;
        this.clock = clock;
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
    void checkAddedFilesExist() {
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
}
