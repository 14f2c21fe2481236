package io.weir.tag;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.Snapshot;
import io.weir.Tag;
import io.weir.Tags;
import io.weir.commit.CommitLog;
import io.weir.commit.TableState;
import io.weir.commit.TagFiles;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The {@link Tags} of a table, stored as files under {@code _weir/tags/}. */
public final class FileTags implements Tags {
    private static final Logger LOG = LoggerFactory.getLogger(FileTags.class);

    private final CommitLog log;
    private final TagFiles files;

    public FileTags(CommitLog log) {
        this.log = log;
        this.files = new TagFiles(log.io(), log.location());
    }

    @Override
    public Tag create(String name, long commitId) {
        Tag tag;
        try {
            tag = new Tag(name, commitId, log.clock().millis());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new ValidationException(
                    "Cannot tag table " + log.location() + ": " + e.getMessage(), e);
        }
        long retained = log.earliestRetainedCommit();
        if (commitId < retained) {
            throw expired(name, commitId, retained);
        }
        TableState state = log.state(commitId);
        if (!files.create(tag, state)) {
            throw new ValidationException(
                    "Cannot create tag '"
                            + name
                            + "' of table "
                            + log.location()
                            + ": it exists already (on commit "
                            + get(name).commitId()
                            + "); delete it first");
        }
        // Written first, checked second: an expiry records the earliest retained commit first,
        // then reads the tags, so one of the two sees the other.
        long earliest = log.earliestRetainedCommit();
        if (commitId < earliest) {
            files.delete(name);
            throw expired(name, commitId, earliest);
        }
        LOG.info("Tagged commit {} of table {} as '{}'", commitId, log.location(), name);
        return tag;
    }

    private SnapshotExpiredException expired(String name, long commitId, long earliest) {
        return new SnapshotExpiredException(
                String.format(
                        "Cannot tag commit %d of table %s as '%s': it has expired (the earliest"
                                + " retained commit is %d)",
                        commitId, log.location(), name, earliest),
                commitId,
                earliest);
    }

    @Override
    public List<String> delete(String name) {
        TagFiles.Entry entry = entry(name);
        files.delete(name);
        List<String> deleted = new ArrayList<>();
        Set<String> needed;
        try {
            needed = neededWithoutTag(name);
        } catch (CorruptFileException e) {
            LOG.warn(
                    "Deleted tag '{}' of table {}, but not its files: {}; orphan removal deletes"
                            + " them",
                    name,
                    log.location(),
                    e.getMessage());
            return deleted;
        }
        String root = log.location().endsWith("/") ? log.location() : log.location() + "/";
        for (DataFile f : entry.state().files()) {
            if (!needed.contains(f.path())) {
                String path = root + f.path();
                try {
                    log.io().delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(
                            "Deleted tag '"
                                    + name
                                    + "' of table "
                                    + log.location()
                                    + " but cannot delete its file "
                                    + path
                                    + "; orphan removal deletes it",
                            e);
                }
                deleted.add(path);
            }
        }
        LOG.info(
                "Deleted tag '{}' (commit {}) of table {} and {} data files only it needed",
                name,
                entry.tag().commitId(),
                log.location(),
                deleted.size());
        return deleted;
    }

    /**
     * The files that a retained snapshot or another tag needs: those live in the latest snapshot,
     * those removed by a retained commit after the earliest retained one (live before it), and
     * every other tag's. The earliest retained commit is read first: it only moves forward, which
     * only shrinks what retained snapshots need.
     */
    private Set<String> neededWithoutTag(String name) {
        long earliest = Math.max(1, log.earliestRetainedCommit());
        TableState latest = log.refresh();
        Set<String> needed = new HashSet<>();
        latest.files().forEach(f -> needed.add(f.path()));
        for (long id = earliest + 1; id <= latest.commitId(); id++) {
            Commit commit = log.commitIfPresent(id);
            if (commit != null) {
                needed.addAll(commit.removed());
            }
        }
        for (TagFiles.Entry other : files.list()) {
            if (!other.tag().name().equals(name)) {
                other.state().files().forEach(f -> needed.add(f.path()));
            }
        }
        return needed;
    }

    @Override
    public Tag get(String name) {
        return entry(name).tag();
    }

    @Override
    public Snapshot snapshot(String name) {
        return entry(name).state();
    }

    @Override
    public List<Tag> list() {
        return files.list().stream().map(TagFiles.Entry::tag).toList();
    }

    /** The tag on a commit, if one names it: the snapshot of an expired commit. */
    public Snapshot taggedSnapshot(long commitId) {
        for (TagFiles.Entry e : files.list()) {
            if (e.tag().commitId() == commitId) {
                return e.state();
            }
        }
        return null;
    }

    private TagFiles.Entry entry(String name) {
        try {
            Tag.checkName(name);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new ValidationException(
                    "Cannot find a tag of table " + log.location() + ": " + e.getMessage(), e);
        }
        TagFiles.Entry entry = files.read(name);
        if (entry == null) {
            throw new ValidationException(
                    "Cannot find tag '"
                            + name
                            + "' of table "
                            + log.location()
                            + "; its tags are "
                            + list().stream().map(Tag::name).toList());
        }
        return entry;
    }
}
