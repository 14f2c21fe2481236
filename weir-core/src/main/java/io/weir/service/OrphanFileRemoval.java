package io.weir.service;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.RemoveOrphanFiles;
import io.weir.RemoveOrphanFilesResult;
import io.weir.WriterLease;
import io.weir.WriterLeases;
import io.weir.commit.CommitLog;
import io.weir.commit.LeaseFiles;
import io.weir.commit.TableState;
import io.weir.commit.TagFiles;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileStatus;
import io.weir.options.Durations;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@link RemoveOrphanFiles} of a table. Lists the table's files first and reads the metadata
 * second, so that a file committed in between counts as referenced.
 *
 * <p>Referenced are the files live in the latest snapshot, every file a commit file that still
 * exists adds or removes, and every file of a tagged snapshot. That covers every retained snapshot:
 * a file live in one is live in the latest snapshot or removed by a later commit, and expiry
 * deletes commit files only after the data files only they mention.
 */
public final class OrphanFileRemoval implements RemoveOrphanFiles {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanFileRemoval.class);

    private final CommitLog log;
    private final LeaseFiles<WriterLease> writerLeases;
    private Long olderThan;
    private boolean dryRun;

    public OrphanFileRemoval(CommitLog log) {
        this.log = log;
        this.writerLeases = LeaseFiles.writers(log.io(), log.location());
    }

    @Override
    public RemoveOrphanFiles olderThan(Duration age) {
        ValidationException.check(
                age.compareTo(MIN_AGE) >= 0,
                "Invalid age '%s' for orphan removal of table %s: must be at least %s, so that the"
                        + " files of writes still to be committed survive",
                Durations.format(age),
                log.location(),
                Durations.format(MIN_AGE));
        return olderThan(log.clock().millis() - age.toMillis());
    }

    @Override
    public RemoveOrphanFiles olderThan(long timestampMillis) {
        this.olderThan = timestampMillis;
        return this;
    }

    @Override
    public RemoveOrphanFiles dryRun() {
        this.dryRun = true;
        return this;
    }

    @Override
    public RemoveOrphanFilesResult execute() {
        long cutoff =
                olderThan != null
                        ? olderThan
                        : log.clock().millis()
                                - log.metadata().options().orphanOlderThan().toMillis();
        String root = log.location().endsWith("/") ? log.location() : log.location() + "/";
        String metadataDir = root + CommitLog.METADATA_DIR + "/";
        List<FileStatus> listed = listAll();
        // Leases second, metadata third: a file listed above is covered by a lease read now, or
        // its writer moved the lease past it after committing it, and the metadata read below
        // references it.
        long keepFrom = writesInFlightSince();
        List<FileStatus> candidates = new ArrayList<>();
        for (FileStatus s : listed) {
            if (s.modificationTimeMillis() < cutoff && !s.path().startsWith(metadataDir)) {
                candidates.add(s);
            }
        }
        Set<String> referenced = referencedFiles();
        int inFlight = 0;
        List<String> orphans = new ArrayList<>();
        long bytes = 0;
        for (FileStatus s : candidates) {
            String relative = s.path().startsWith(root) ? s.path().substring(root.length()) : null;
            if (relative == null) {
                throw new IllegalStateException(
                        "Listing " + root + " returned " + s.path() + ", which is not under it");
            }
            if (referenced.contains(relative)) {
                continue;
            }
            if (s.modificationTimeMillis() >= keepFrom) {
                inFlight++;
            } else {
                orphans.add(s.path());
                bytes += s.length();
            }
        }
        for (FileStatus s : log.abandonedMetadataFiles(Math.min(cutoff, keepFrom))) {
            orphans.add(s.path());
            bytes += s.length();
        }
        long grace = log.metadata().options().orphanOlderThan().toMillis();
        orphans.addAll(writerLeases.endedBefore(log.clock().millis() - grace));
        if (inFlight > 0) {
            LOG.info(
                    "Kept {} unreferenced files of table {} modified since {}: a live writer lease"
                            + " covers them (writes not committed yet)",
                    inFlight,
                    log.location(),
                    java.time.Instant.ofEpochMilli(keepFrom));
        }
        if (!dryRun) {
            try {
                log.io().deleteFiles(orphans);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot delete the orphan files of table " + log.location(), e);
            }
            LOG.info(
                    "Removed {} orphan files ({} bytes) of table {}",
                    orphans.size(),
                    bytes,
                    log.location());
        }
        return new RemoveOrphanFilesResult(orphans, bytes, dryRun, inFlight);
    }

    /**
     * The least modification time of the files that live writer leases protect (less {@link
     * WriterLeases#CLOCK_ALLOWANCE}); {@code Long.MAX_VALUE} if no lease is live. Ended leases and
     * lease files that do not parse protect nothing and are skipped with a warning.
     */
    private long writesInFlightSince() {
        long now = log.clock().millis();
        long since = Long.MAX_VALUE;
        for (WriterLease lease : writerLeases.list()) {
            if (lease.isLive(now)) {
                since = Math.min(since, lease.oldestFileMillis());
            } else {
                LOG.warn(
                        "Ignoring the writer lease {} of table {}: it ended at {} (not renewed"
                                + " since); it protects nothing",
                        lease.writerId(),
                        log.location(),
                        java.time.Instant.ofEpochMilli(lease.expiresMillis()));
            }
        }
        return since == Long.MAX_VALUE ? since : since - WriterLeases.CLOCK_ALLOWANCE.toMillis();
    }

    private List<FileStatus> listAll() {
        try {
            return log.io().listRecursive(log.location());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list table " + log.location(), e);
        }
    }

    /**
     * Every file the metadata references. Refuses (throws, having deleted nothing) unless every
     * commit it must read can be read: a commit file that is damaged or missing would make the
     * files only it references look like orphans. Only commits that a rollback abandoned (it
     * repaired the table) may be damaged or missing; their files are no snapshot's any more.
     */
    private Set<String> referencedFiles() {
        Set<String> referenced = new HashSet<>();
        TableState latest;
        try {
            latest = log.refresh();
        } catch (CorruptFileException e) {
            throw refuse(e);
        }
        for (DataFile f : latest.files()) {
            referenced.add(f.path());
        }
        // From the latest down, so that rollbacks are seen before the commits they abandoned.
        List<Long> ids = new ArrayList<>(log.commitFileIds());
        Collections.reverse(ids);
        Set<Long> present = new HashSet<>(ids);
        List<long[]> abandoned = new ArrayList<>();
        long earliest = log.earliestRetainedCommit();
        for (long id = latest.commitId(); id >= Math.max(1, earliest); id--) {
            if (!present.contains(id) && !isAbandoned(abandoned, id)) {
                throw refuse(
                        new CorruptFileException(
                                commitPath(id),
                                "missing, but table "
                                        + log.location()
                                        + " retains commits "
                                        + earliest
                                        + " to "
                                        + latest.commitId()));
            }
            if (present.contains(id)) {
                Commit commit = read(id, abandoned);
                if (commit != null && commit.baseCommitId() != id - 1) {
                    abandoned.add(new long[] {commit.baseCommitId(), id});
                }
            }
        }
        for (long id : ids) {
            Commit commit =
                    id >= Math.max(1, earliest) && id <= latest.commitId()
                            ? cached.get(id)
                            : read(id, abandoned);
            if (commit == null) {
                continue; // abandoned and damaged, or expired and deleted meanwhile
            }
            commit.added().forEach(f -> referenced.add(f.path()));
            referenced.addAll(commit.removed());
        }
        // Tags keep the files of their snapshots, also after their commits expired. A damaged tag
        // file fails the listing: the files it protects are unknown.
        for (TagFiles.Entry tag : new TagFiles(log.io(), log.location()).list()) {
            tag.state().files().forEach(f -> referenced.add(f.path()));
        }
        return referenced;
    }

    private final java.util.Map<Long, Commit> cached = new java.util.HashMap<>();

    private Commit read(long id, List<long[]> abandoned) {
        try {
            Commit commit = log.commitIfPresent(id);
            if (commit != null) {
                cached.put(id, commit);
            }
            return commit;
        } catch (CorruptFileException e) {
            if (isAbandoned(abandoned, id)) {
                LOG.info(
                        "Commit {} of table {} is damaged but was abandoned by a rollback: the"
                                + " files only it referenced count as orphans",
                        id,
                        log.location());
                return null;
            }
            throw refuse(e);
        }
    }

    private static boolean isAbandoned(List<long[]> abandoned, long id) {
        for (long[] range : abandoned) {
            if (id > range[0] && id < range[1]) {
                return true;
            }
        }
        return false;
    }

    private String commitPath(long id) {
        String digits = Long.toString(id);
        return log.location()
                + "/"
                + CommitLog.METADATA_DIR
                + "/commits/"
                + "0".repeat(20 - digits.length())
                + digits
                + ".json";
    }

    private CorruptFileException refuse(CorruptFileException e) {
        return e.withAdvice(
                "Orphan removal of table "
                        + log.location()
                        + " refuses to run while a commit it must read is damaged or missing (it"
                        + " would take the files only that commit references for orphans);"
                        + " nothing was deleted");
    }
}
