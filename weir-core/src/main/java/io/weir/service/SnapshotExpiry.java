package io.weir.service;

import io.weir.ExpireSnapshots;
import io.weir.ExpireSnapshotsResult;
import io.weir.SnapshotLease;
import io.weir.commit.CommitLog;
import io.weir.commit.LeaseFiles;
import io.weir.commit.TableState;
import io.weir.commit.TagFiles;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.ValidationException;
import io.weir.options.TableOptions;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * The {@link ExpireSnapshots} of a table. One run, in an order that leaves the table loadable and
 * every retained snapshot readable if it stops at any point (docs/table-services.md):
 *
 * <ol>
 *   <li>decide the earliest commit R to retain (counts, age, live leases);
 *   <li>write a checkpoint as of R, then record R as the earliest retained commit ({@link
 *       CommitLog#retainFrom}); from now on no reader loads or leases a snapshot before R;
 *   <li>read the leases again: a reader that leased an older snapshot meanwhile keeps its files;
 *   <li>delete the data files no snapshot from there on needs;
 *   <li>delete the checkpoints, then the commits, before it, oldest first; then ended leases.
 * </ol>
 *
 * A run that failed or died is finished by the next one: steps 4 and 5 work from the commit files
 * that still exist, and step 5 starts only after step 4 completed.
 */
public final class SnapshotExpiry implements ExpireSnapshots {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotExpiry.class);

    private final CommitLog log;
    private Integer retainLast;
    private Long olderThan;
    private boolean dryRun;

    public SnapshotExpiry(CommitLog log) {
        this.log = log;
    }

    @Override
    public ExpireSnapshots retainLast(int count) {
        ValidationException.check(
                count >= 1,
                "Invalid number of commits to retain of table %s: %s, must be at least 1",
                log.location(),
                count);
        this.retainLast = count;
        return this;
    }

    @Override
    public ExpireSnapshots expireOlderThan(long timestampMillis) {
        this.olderThan = timestampMillis;
        return this;
    }

    @Override
    public ExpireSnapshots dryRun() {
        this.dryRun = true;
        return this;
    }

    @Override
    public ExpireSnapshotsResult apply() {
        return run(false);
    }

    @Override
    public ExpireSnapshotsResult commit() {
        return run(!dryRun);
    }

    private ExpireSnapshotsResult run(boolean execute) {
        TableState latest = log.refresh();
        TableOptions options = log.metadata().options();
        LeaseFiles<SnapshotLease> leases = LeaseFiles.readers(log.io(), log.location());
        long now = log.clock().millis();
        RetentionPolicy policy =
                new RetentionPolicy(
                        retainLast != null ? retainLast : options.snapshotNumRetainedMin(),
                        options.snapshotNumRetainedMax(),
                        olderThan != null
                                ? olderThan
                                : now - options.snapshotTimeRetained().toMillis());
        long before = log.earliestRetainedCommit();
        long retainFrom =
                policy.earliestToRetain(log, latest.commitId(), before, live(leases.list(), now));
        if (!execute) {
            retainFrom = readableFrom(retainFrom, before);
            List<String> data = fullPaths(untagged(ExpiredDataFiles.find(log, latest, retainFrom)));
            List<String> metadata = new ArrayList<>(log.metadataFilesBefore(retainFrom));
            metadata.addAll(endedLeases(leases, now));
            return new ExpireSnapshotsResult(before, retainFrom, retainFrom, data, metadata, true);
        }
        if (retainFrom > before) {
            retainFrom = retainReadable(retainFrom, before);
        }
        long keptFrom = retainFrom;
        for (SnapshotLease lease : live(leases.list(), log.clock().millis())) {
            keptFrom = Math.min(keptFrom, lease.commitId());
        }
        if (keptFrom < retainFrom) {
            LOG.info(
                    "A reader leased commit {} of table {} while its snapshots before {} expired;"
                            + " keeping the files from commit {} on",
                    keptFrom,
                    log.location(),
                    retainFrom,
                    keptFrom);
        }
        // Read after the earliest retained commit was recorded: a tag created meanwhile on an
        // older snapshot either is seen here or learns that its snapshot expired (Tags).
        List<String> data = fullPaths(untagged(ExpiredDataFiles.find(log, latest, keptFrom)));
        data.forEach(this::delete);
        List<String> metadata = new ArrayList<>(log.metadataFilesBefore(keptFrom));
        metadata.forEach(this::delete);
        List<String> ended = endedLeases(leases, log.clock().millis());
        ended.forEach(this::delete);
        metadata.addAll(ended);
        if (retainFrom > before || !data.isEmpty() || !metadata.isEmpty()) {
            LOG.info(
                    "Expired the snapshots of table {} before commit {} (earliest retained was {}):"
                            + " deleted {} data and {} metadata files",
                    log.location(),
                    retainFrom,
                    before,
                    data.size(),
                    metadata.size());
        }
        return new ExpireSnapshotsResult(before, retainFrom, keptFrom, data, metadata, false);
    }

    /**
     * {@code retainFrom}, or the greatest earlier commit whose state can be read: a commit that a
     * rollback abandoned because it is damaged cannot start the retained snapshots (expiry writes a
     * checkpoint as of it); {@code before} if none can.
     */
    private long readableFrom(long retainFrom, long before) {
        return firstReadable(retainFrom, before, log::state);
    }

    /** Records the earliest retained commit as {@link #readableFrom} would choose it. */
    private long retainReadable(long retainFrom, long before) {
        return firstReadable(retainFrom, before, log::retainFrom);
    }

    /**
     * The greatest commit from {@code retainFrom} down to (not including) {@code before} for which
     * {@code action} does not find the state damaged; {@code before} if there is none.
     */
    private long firstReadable(long retainFrom, long before, LongConsumer action) {
        for (long id = retainFrom; id > before; id--) {
            try {
                action.accept(id);
                if (id != retainFrom) {
                    LOG.warn(
                            "Snapshot {} of table {} cannot be read; retaining from {} instead",
                            retainFrom,
                            log.location(),
                            id);
                }
                return id;
            } catch (CorruptFileException e) {
                LOG.debug("Snapshot {} of table {} cannot be read: {}", id, log.location(), e);
            }
        }
        return before;
    }

    /** The files of {@code expired} that no tag needs. */
    private List<String> untagged(List<String> expired) {
        if (expired.isEmpty()) {
            return expired;
        }
        Set<String> tagged = new HashSet<>();
        for (TagFiles.Entry tag : new TagFiles(log.io(), log.location()).list()) {
            tag.state().files().forEach(f -> tagged.add(f.path()));
        }
        return expired.stream().filter(p -> !tagged.contains(p)).toList();
    }

    private static List<SnapshotLease> live(List<SnapshotLease> leases, long now) {
        return leases.stream().filter(l -> l.isLive(now)).toList();
    }

    /** Lease files that ended longer than {@code orphan.older-than} ago (see LeaseFiles). */
    private List<String> endedLeases(LeaseFiles<SnapshotLease> leases, long now) {
        return leases.endedBefore(now - log.metadata().options().orphanOlderThan().toMillis());
    }

    private List<String> fullPaths(List<String> relative) {
        String prefix = log.location().endsWith("/") ? log.location() : log.location() + "/";
        List<String> out = new ArrayList<>(relative.size());
        relative.forEach(p -> out.add(prefix + p));
        return out;
    }

    /** Deletes one file; a failure stops the run, and the next run takes over from there. */
    private void delete(String path) {
        try {
            log.io().delete(path);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot delete "
                            + path
                            + " while expiring snapshots of table "
                            + log.location()
                            + "; run the expiry again to finish",
                    e);
        }
    }
}
