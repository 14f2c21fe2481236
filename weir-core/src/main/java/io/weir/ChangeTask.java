package io.weir;

import java.util.List;

/**
 * The unit of an incremental read: one file group, its files at the start snapshot and at the end
 * snapshot.
 */
public record ChangeTask(
        long fromSnapshotId,
        long toSnapshotId,
        FileGroupId fileGroup,
        List<DataFile> filesBefore,
        List<DataFile> filesAfter) {
    public ChangeTask {
        filesBefore = List.copyOf(filesBefore);
        filesAfter = List.copyOf(filesAfter);
    }
}
