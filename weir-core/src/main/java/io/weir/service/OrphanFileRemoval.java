package io.weir.service;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.RemoveOrphanFiles;
import io.weir.RemoveOrphanFilesResult;
import io.weir.commit.CommitLog;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileStatus;
import io.weir.options.Durations;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@link RemoveOrphanFiles} of a table. Lists the table's files first and reads the metadata
 * second, so that a file committed in between counts as referenced.
 *
 * <p>Referenced are the files live in the latest snapshot and every file a commit file that still
 * exists adds or removes. That covers every retained snapshot: a file live in one is live in the
 * latest snapshot or removed by a later commit, and expiry deletes commit files only after the data
 * files only they mention.
 */
public final class OrphanFileRemoval implements RemoveOrphanFiles {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanFileRemoval.class);

    private final CommitLog log;
    private Long olderThan;
    private boolean dryRun;

    public OrphanFileRemoval(CommitLog log) {
        this.log = log;
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
        List<FileStatus> candidates = new ArrayList<>();
        for (FileStatus s : listAll()) {
            if (s.modificationTimeMillis() < cutoff && !s.path().startsWith(metadataDir)) {
                candidates.add(s);
            }
        }
        Set<String> referenced = referencedFiles();
        List<String> orphans = new ArrayList<>();
        long bytes = 0;
        for (FileStatus s : candidates) {
            String relative = s.path().startsWith(root) ? s.path().substring(root.length()) : null;
            if (relative == null) {
                throw new IllegalStateException(
                        "Listing " + root + " returned " + s.path() + ", which is not under it");
            }
            if (!referenced.contains(relative)) {
                orphans.add(s.path());
                bytes += s.length();
            }
        }
        for (FileStatus s : log.abandonedMetadataFiles(cutoff)) {
            orphans.add(s.path());
            bytes += s.length();
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
        return new RemoveOrphanFilesResult(orphans, bytes, dryRun);
    }

    private List<FileStatus> listAll() {
        try {
            return log.io().listRecursive(log.location());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list table " + log.location(), e);
        }
    }

    private Set<String> referencedFiles() {
        Set<String> referenced = new HashSet<>();
        for (DataFile f : log.refresh().files()) {
            referenced.add(f.path());
        }
        for (long id : log.commitFileIds()) {
            Commit commit = log.commitIfPresent(id);
            if (commit == null) {
                continue; // expired and deleted meanwhile: expiry deals with its files
            }
            commit.added().forEach(f -> referenced.add(f.path()));
            referenced.addAll(commit.removed());
        }
        return referenced;
    }
}
