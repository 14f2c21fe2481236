package io.weir.commit;

import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.Partition;
import io.weir.exceptions.ValidationException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a commit should change, independent of the table state it is applied to: {@link
 * CommitLog#commit(CommitRequest)} resolves it against the latest state on every attempt (file
 * sequences, the files an overwrite replaces).
 */
public final class CommitRequest {
    private final CommitKind kind;
    private final String writerId;
    private final long checkpointId;
    private final List<DataFile> added;
    private final List<String> removed;
    private final boolean overwriteAll;
    private final Set<Partition> overwritePartitions;
    private final Map<String, String> properties;
    private final int schemaId;
    private final boolean verifyAddedFiles;
    private final long requiredLatest;
    private final int requiredSchemaId;

    private CommitRequest(Builder b) {
        this.kind = b.kind;
        this.writerId = b.writerId;
        this.checkpointId = b.checkpointId;
        this.added = List.copyOf(b.added);
        this.removed = List.copyOf(b.removed);
        this.overwriteAll = b.overwriteAll;
        this.overwritePartitions = Set.copyOf(b.overwritePartitions);
        this.properties = Map.copyOf(b.properties);
        this.schemaId = b.schemaId;
        this.verifyAddedFiles = b.verifyAddedFiles;
        this.requiredLatest = b.requiredLatest;
        this.requiredSchemaId = b.requiredSchemaId;
    }

    public static Builder builder(CommitKind kind) {
        return new Builder(kind);
    }

    /** An append of new files (typically log files), without writer identity. */
    public static CommitRequest append(List<DataFile> files) {
        return builder(CommitKind.APPEND).add(files).build();
    }

    /** A compaction: replaces {@code removed} with {@code added} (base files). */
    public static CommitRequest compact(List<String> removed, List<DataFile> added) {
        return builder(CommitKind.COMPACT).remove(removed).add(added).build();
    }

    /** Whether the commit checks that every added file exists before it lands. */
    public boolean verifyAddedFiles() {
        return verifyAddedFiles;
    }

    public CommitKind kind() {
        return kind;
    }

    /** Who commits, for idempotent re-commits; null if anonymous. */
    public String writerId() {
        return writerId;
    }

    /** The writer's checkpoint this commit holds, or -1. */
    public long checkpointId() {
        return checkpointId;
    }

    /**
     * Files to add, in order. Log files get new sequence numbers in this order; base files keep
     * theirs (compaction sets the greatest sequence it merged) unless it is -1.
     */
    public List<DataFile> added() {
        return added;
    }

    /** Paths of files to remove; each must be live when the commit lands. */
    public List<String> removed() {
        return removed;
    }

    /** Whether an OVERWRITE replaces every live file of the table. */
    public boolean overwriteAll() {
        return overwriteAll;
    }

    /** The partitions whose live files an OVERWRITE replaces. */
    public Set<Partition> overwritePartitions() {
        return overwritePartitions;
    }

    public Map<String, String> properties() {
        return properties;
    }

    /** The schema in force after the commit, or -1 to keep the table's current one. */
    public int schemaId() {
        return schemaId;
    }

    /** The commit that must be the latest when this one lands, or -1 for any. */
    public long requiredLatest() {
        return requiredLatest;
    }

    /** The schema version the table must still be at when this commits; -1 for any. */
    public int requiredSchemaId() {
        return requiredSchemaId;
    }

    @Override
    public String toString() {
        return kind
                + " commit request (writer="
                + writerId
                + ", checkpoint="
                + checkpointId
                + ", added="
                + added.size()
                + ", removed="
                + removed.size()
                + (overwriteAll ? ", overwrite all" : "")
                + (overwritePartitions.isEmpty() ? "" : ", overwrite " + overwritePartitions)
                + ")";
    }

    /** Builds a {@link CommitRequest}. */
    public static final class Builder {
        private final CommitKind kind;
        private String writerId;
        private long checkpointId = -1;
        private final List<DataFile> added = new ArrayList<>();
        private final List<String> removed = new ArrayList<>();
        private boolean overwriteAll;
        private final Set<Partition> overwritePartitions = new LinkedHashSet<>();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private int schemaId = -1;
        private boolean verifyAddedFiles;
        private long requiredLatest = -1;
        private int requiredSchemaId = -1;

        private Builder(CommitKind kind) {
            this.kind = Objects.requireNonNull(kind, "kind");
        }

        /**
         * Sets the writer identity: a commit of (writer, checkpoint) lands at most once; a request
         * whose checkpoint id is not above the writer's last committed one changes nothing.
         */
        public Builder writer(String writerId, long checkpointId) {
            this.writerId = Objects.requireNonNull(writerId, "writerId");
            this.checkpointId = checkpointId;
            return this;
        }

        public Builder add(DataFile file) {
            added.add(Objects.requireNonNull(file, "file"));
            return this;
        }

        public Builder add(Collection<DataFile> files) {
            files.forEach(this::add);
            return this;
        }

        public Builder remove(String path) {
            removed.add(Objects.requireNonNull(path, "path"));
            return this;
        }

        public Builder remove(Collection<String> paths) {
            paths.forEach(this::remove);
            return this;
        }

        /** For OVERWRITE: replace every live file of the table. */
        public Builder overwriteAll() {
            this.overwriteAll = true;
            return this;
        }

        /**
         * For OVERWRITE: replace every live file of these partitions; for CLEAN: drop them (remove
         * every file live in them when the commit lands).
         */
        public Builder overwritePartitions(Collection<Partition> partitions) {
            overwritePartitions.addAll(partitions);
            return this;
        }

        public Builder property(String key, String value) {
            properties.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
            return this;
        }

        public Builder properties(Map<String, String> props) {
            props.forEach(this::property);
            return this;
        }

        /**
         * Checks, before the commit lands, that every added file exists (a stat, or a HEAD on an
         * object store, per file), and refuses the commit with a {@link
         * io.weir.exceptions.MissingFileException} if one does not. Every table operation that adds
         * files asks for it; the commit log alone records metadata and does not.
         */
        public Builder verifyAddedFiles() {
            this.verifyAddedFiles = true;
            return this;
        }

        public Builder schemaId(int schemaId) {
            this.schemaId = schemaId;
            return this;
        }

        /**
         * Lands only on {@code commitId}: if another commit landed since, this one fails with a
         * conflict instead of being applied on top (for a rewrite of the whole table).
         */
        public Builder requireLatest(long commitId) {
            this.requiredLatest = commitId;
            return this;
        }

        /**
         * Fails the commit with a conflict if the table's schema version is no longer {@code
         * schemaId}: a schema change computed from one version must not overwrite a concurrent one.
         */
        public Builder requireSchema(int schemaId) {
            this.requiredSchemaId = schemaId;
            return this;
        }

        /**
         * @throws ValidationException if the request is inconsistent: duplicate paths, a file both
         *     added and removed, an overwrite scope on a non-OVERWRITE commit, a file added outside
         *     the overwritten partitions
         */
        public CommitRequest build() {
            ValidationException.check(
                    checkpointId >= -1,
                    "Invalid checkpoint id %s: must be >= 0 (or -1 for none)",
                    checkpointId);
            boolean scoped = overwriteAll || !overwritePartitions.isEmpty();
            ValidationException.check(
                    !scoped || kind == CommitKind.OVERWRITE || kind == CommitKind.CLEAN,
                    "Invalid %s commit request: only an OVERWRITE commit can overwrite partitions"
                            + " (or a CLEAN commit drop them)",
                    kind);
            ValidationException.check(
                    !(overwriteAll && !overwritePartitions.isEmpty()),
                    "Invalid OVERWRITE commit request: give either the whole table or partitions,"
                            + " not both");
            Set<String> paths = new HashSet<>();
            for (DataFile f : added) {
                ValidationException.check(
                        paths.add(f.path()), "Invalid commit request: %s added twice", f.path());
                ValidationException.check(
                        overwritePartitions.isEmpty()
                                || overwritePartitions.contains(f.partition()),
                        "Invalid OVERWRITE commit request: file %s of partition %s is outside the"
                                + " overwritten partitions %s",
                        f.path(),
                        f.partition(),
                        overwritePartitions);
            }
            Set<String> removedPaths = new HashSet<>();
            for (String p : removed) {
                ValidationException.check(
                        removedPaths.add(p), "Invalid commit request: %s removed twice", p);
                ValidationException.check(
                        !paths.contains(p),
                        "Invalid commit request: %s is both added and removed",
                        p);
            }
            return new CommitRequest(this);
        }
    }
}
