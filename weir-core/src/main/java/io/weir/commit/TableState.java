package io.weir.commit;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.Snapshot;
import io.weir.util.SharedHashMap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The table as of one commit: its live files by file group, the last sequence number assigned and
 * the last checkpoint of each writer. Immutable; {@link Builder} applies commits in place, so that
 * replaying many commits copies the file set once, not once per commit.
 *
 * <p>Within a file group, files are ordered base files first, then log files, each by ascending
 * sequence (then path).
 */
public final class TableState implements Snapshot {
    /** The order of files within a file group: base files first, then by sequence, then path. */
    public static final Comparator<DataFile> FILE_ORDER =
            Comparator.comparing((DataFile f) -> f.kind() != FileKind.BASE)
                    .thenComparingLong(DataFile::sequence)
                    .thenComparing(DataFile::path);

    private final long commitId;
    private final long timestampMillis;
    private final int schemaId;
    private final long lastSequence;
    private final SortedMap<FileGroupId, List<DataFile>> groups;
    private final SharedHashMap<String, DataFile> filesByPath;
    private final Map<String, WriterCheckpoint> writers;

    private TableState(Builder b) {
        this.commitId = b.commitId;
        this.timestampMillis = b.timestampMillis;
        this.schemaId = b.schemaId;
        this.lastSequence = b.lastSequence;
        for (Map.Entry<FileGroupId, Map<String, DataFile>> e : b.changed.entrySet()) {
            if (e.getValue().isEmpty()) {
                b.groups.remove(e.getKey());
            } else {
                List<DataFile> files = new ArrayList<>(e.getValue().values());
                files.sort(FILE_ORDER);
                b.groups.put(e.getKey(), Collections.unmodifiableList(files));
            }
        }
        this.groups = Collections.unmodifiableSortedMap(b.groups);
        this.filesByPath = b.filesByPath.build();
        this.writers = Collections.unmodifiableMap(b.writers);
    }

    /** The state of a table with no commit yet (commit id 0). */
    public static TableState empty(int schemaId, long createdMillis) {
        return new Builder(0, createdMillis, schemaId, 0).build();
    }

    /** The commit this state is as of; 0 if the table has no commit yet. */
    @Override
    public long id() {
        return commitId;
    }

    public long commitId() {
        return commitId;
    }

    /** The timestamp of the commit (of table creation for commit 0). */
    @Override
    public long timestampMillis() {
        return timestampMillis;
    }

    /** The schema in force. */
    @Override
    public int schemaId() {
        return schemaId;
    }

    /** The greatest sequence number assigned to a file so far (0 if none). */
    public long lastSequence() {
        return lastSequence;
    }

    /** The live files by file group, in file-group order. */
    @Override
    public SortedMap<FileGroupId, List<DataFile>> fileGroups() {
        return groups;
    }

    /** The live files of one file group in {@link #FILE_ORDER}; empty if it has none. */
    public List<DataFile> files(FileGroupId group) {
        return groups.getOrDefault(group, List.of());
    }

    /** Every live file, in file-group order. */
    @Override
    public List<DataFile> files() {
        List<DataFile> all = new ArrayList<>(filesByPath.size());
        groups.values().forEach(all::addAll);
        return all;
    }

    /** The live files of the given partitions, in file-group order. */
    public List<DataFile> files(Set<Partition> partitions) {
        List<DataFile> out = new ArrayList<>();
        for (Map.Entry<FileGroupId, List<DataFile>> e : groups.entrySet()) {
            if (partitions.contains(e.getKey().partition())) {
                out.addAll(e.getValue());
            }
        }
        return out;
    }

    /** A live file of one partition, or null if it has none (a range of the sorted groups). */
    public DataFile anyFile(Partition partition) {
        for (List<DataFile> files :
                groups.subMap(
                                new FileGroupId(partition, Integer.MIN_VALUE),
                                new FileGroupId(partition, Integer.MAX_VALUE))
                        .values()) {
            if (!files.isEmpty()) {
                return files.get(0);
            }
        }
        return null;
    }

    public int fileCount() {
        return filesByPath.size();
    }

    /** The live file with this path, or null. */
    public DataFile file(String path) {
        return filesByPath.get(path);
    }

    public boolean isLive(String path) {
        return filesByPath.containsKey(path);
    }

    /** Each writer's last committed checkpoint, by writer id. */
    public Map<String, WriterCheckpoint> writers() {
        return writers;
    }

    /** The last checkpoint id the writer committed, or -1 if it never committed one. */
    public long lastCheckpointId(String writerId) {
        WriterCheckpoint w = writers.get(writerId);
        return w == null ? -1 : w.checkpointId();
    }

    /**
     * A builder starting from this state. It shares the files of every group it leaves unchanged,
     * so its cost follows the groups a commit changes, plus a copy of the group map and of the
     * slots of the files by path.
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** This state with one more commit applied; to replay many, use a builder. */
    public TableState apply(Commit commit) {
        return toBuilder().apply(commit).build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableState other
                && commitId == other.commitId
                && timestampMillis == other.timestampMillis
                && schemaId == other.schemaId
                && lastSequence == other.lastSequence
                && groups.equals(other.groups)
                && writers.equals(other.writers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(commitId, timestampMillis, schemaId, lastSequence, groups, writers);
    }

    @Override
    public String toString() {
        return "TableState{commit="
                + commitId
                + ", schema="
                + schemaId
                + ", lastSequence="
                + lastSequence
                + ", groups="
                + groups.size()
                + ", files="
                + filesByPath.size()
                + "}";
    }

    /**
     * Applies commits to a mutable copy of a state. Not thread-safe; {@link #build()} hands the
     * collections over to the new state, after which the builder must not be used.
     */
    public static final class Builder {
        private long commitId;
        private long timestampMillis;
        private int schemaId;
        private long lastSequence;
        private final TreeMap<FileGroupId, List<DataFile>> groups;
        // The files of each group a commit changed, by path, so that removing a file is O(1) even
        // in a group of many files; the state sorts them when it is built.
        private final Map<FileGroupId, Map<String, DataFile>> changed = new HashMap<>();
        private final SharedHashMap.Builder<String, DataFile> filesByPath;
        private final Map<String, WriterCheckpoint> writers;
        private boolean built;

        Builder(long commitId, long timestampMillis, int schemaId, long lastSequence) {
            this.commitId = commitId;
            this.timestampMillis = timestampMillis;
            this.schemaId = schemaId;
            this.lastSequence = lastSequence;
            this.groups = new TreeMap<>();
            this.filesByPath = SharedHashMap.<String, DataFile>empty().toBuilder();
            this.writers = new HashMap<>();
        }

        private Builder(TableState from) {
            this.commitId = from.commitId;
            this.timestampMillis = from.timestampMillis;
            this.schemaId = from.schemaId;
            this.lastSequence = from.lastSequence;
            this.groups = new TreeMap<>(from.groups); // linear: built from the sorted map
            this.filesByPath = from.filesByPath.toBuilder();
            this.writers = new HashMap<>(from.writers);
        }

        public long commitId() {
            return commitId;
        }

        /**
         * Applies the next commit.
         *
         * @throws IllegalArgumentException if the commit does not follow this state: its {@link
         *     Commit#baseCommitId() base} is not this state's commit, it removes a file that is not
         *     live or adds one that is
         */
        public Builder apply(Commit commit) {
            checkNotBuilt();
            if (commit.baseCommitId() != commitId) {
                throw new IllegalArgumentException(
                        "Cannot apply commit "
                                + commit.id()
                                + " to the state as of commit "
                                + commitId
                                + (commit.baseCommitId() == commit.id() - 1
                                        ? ": commits must be applied in order"
                                        : ": it restores the state of commit "
                                                + commit.baseCommitId()));
            }
            for (String path : commit.removed()) {
                if (!removeFile(path)) {
                    throw new IllegalArgumentException(
                            "Cannot apply commit "
                                    + commit.id()
                                    + ": it removes "
                                    + path
                                    + ", which is not live");
                }
            }
            for (DataFile f : commit.added()) {
                if (!addFile(f)) {
                    throw new IllegalArgumentException(
                            "Cannot apply commit "
                                    + commit.id()
                                    + ": it adds "
                                    + f.path()
                                    + ", which is already live");
                }
            }
            commitId = commit.id();
            timestampMillis = commit.timestampMillis();
            schemaId = commit.schemaId();
            if (commit.writerId() != null && commit.checkpointId() >= 0) {
                WriterCheckpoint prev = writers.get(commit.writerId());
                if (prev == null || commit.checkpointId() > prev.checkpointId()) {
                    writers.put(
                            commit.writerId(),
                            new WriterCheckpoint(commit.checkpointId(), commit.id()));
                }
            }
            return this;
        }

        /** Adds a live file; false if its path is live already. */
        boolean addFile(DataFile f) {
            checkNotBuilt();
            if (filesByPath.putIfAbsent(f.path(), f) != null) {
                return false;
            }
            changedFiles(f.fileGroup()).put(f.path(), f);
            lastSequence = Math.max(lastSequence, f.sequence());
            return true;
        }

        private boolean removeFile(String path) {
            DataFile f = filesByPath.remove(path);
            if (f == null) {
                return false;
            }
            changedFiles(f.fileGroup()).remove(path);
            return true;
        }

        private Map<String, DataFile> changedFiles(FileGroupId group) {
            Map<String, DataFile> files = changed.get(group);
            if (files == null) {
                files = new HashMap<>();
                for (DataFile f : groups.getOrDefault(group, List.of())) {
                    files.put(f.path(), f);
                }
                changed.put(group, files);
            }
            return files;
        }

        void writer(String writerId, WriterCheckpoint checkpoint) {
            writers.put(writerId, checkpoint);
        }

        public TableState build() {
            checkNotBuilt();
            built = true;
            return new TableState(this);
        }

        private void checkNotBuilt() {
            if (built) {
                throw new IllegalStateException("The builder was used to build a state already");
            }
        }
    }
}
