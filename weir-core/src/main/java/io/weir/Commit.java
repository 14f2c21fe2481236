package io.weir;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The immutable content of one commit file, {@code _weir/commits/<id>.json}: the change from commit
 * {@code id - 1} to commit {@code id}.
 *
 * @param id the commit id: 1 for a table's first commit, then 2, 3, ...
 * @param timestampMillis when the commit was made (epoch millis)
 * @param kind what the commit did
 * @param schemaId the table schema in force after the commit
 * @param writerId who committed (e.g. a Flink job's sink), for idempotent re-commits; may be null
 * @param checkpointId the writer's checkpoint this commit holds, or -1
 * @param added files added, with their final sequence numbers
 * @param removed relative paths of files removed
 * @param properties free-form summary (record counts etc.)
 * @param baseCommitId the commit whose state this commit changes: {@code id - 1}, except for a
 *     {@link CommitKind#ROLLBACK}, which restores the state of an earlier commit (docs/format.md
 *     §6.3)
 */
public record Commit(
        long id,
        long timestampMillis,
        CommitKind kind,
        int schemaId,
        String writerId,
        long checkpointId,
        List<DataFile> added,
        List<String> removed,
        Map<String, String> properties,
        long baseCommitId) {

    /** A commit that changes the state of commit {@code id - 1}, as every kind but a rollback. */
    public Commit(
            long id,
            long timestampMillis,
            CommitKind kind,
            int schemaId,
            String writerId,
            long checkpointId,
            List<DataFile> added,
            List<String> removed,
            Map<String, String> properties) {
        this(
                id,
                timestampMillis,
                kind,
                schemaId,
                writerId,
                checkpointId,
                added,
                removed,
                properties,
                id - 1);
    }

    public Commit {
        Objects.requireNonNull(kind, "kind");
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        properties = properties == null ? Map.of() : Map.copyOf(properties);
        if (id < 1) {
            throw new IllegalArgumentException("Invalid commit id " + id + ": must be >= 1");
        }
        if (baseCommitId < 0 || baseCommitId >= id) {
            throw new IllegalArgumentException(
                    "Invalid base commit "
                            + baseCommitId
                            + " of commit "
                            + id
                            + ": must be 0 to "
                            + (id - 1));
        }
        if (baseCommitId != id - 1
                && (kind != CommitKind.ROLLBACK || !added.isEmpty() || !removed.isEmpty())) {
            throw new IllegalArgumentException(
                    "Invalid base commit "
                            + baseCommitId
                            + " of commit "
                            + id
                            + ": only a ROLLBACK without added or removed files may restore an"
                            + " earlier commit's state");
        }
    }
}
