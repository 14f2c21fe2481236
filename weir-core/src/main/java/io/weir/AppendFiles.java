package io.weir;

import java.util.Collection;

/**
 * Commits new data files: {@code table.newAppend().identity(writer, checkpoint).addFiles(files)
 * .commit()}. With an identity, committing the same (writer id, checkpoint id) twice is a no-op the
 * second time, and checkpoints at or below the writer's last committed one are skipped.
 */
public interface AppendFiles extends TableUpdate<CommitResult> {
    AppendFiles addFile(DataFile file);

    AppendFiles addFiles(Collection<DataFile> files);

    /** Who commits and which of its checkpoints this is, for idempotent re-commits. */
    AppendFiles identity(String writerId, long checkpointId);

    /** A free-form property recorded in the commit. */
    AppendFiles set(String key, String value);
}
