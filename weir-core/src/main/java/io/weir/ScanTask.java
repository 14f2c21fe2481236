package io.weir;

import java.util.List;

/**
 * The unit of reading: one file group of one snapshot and the files to merge (base files, then logs
 * by ascending sequence).
 */
public record ScanTask(long snapshotId, FileGroupId fileGroup, List<DataFile> files) {
    public ScanTask {
        files = List.copyOf(files);
    }

    public long recordCount() {
        return files.stream().mapToLong(DataFile::recordCount).sum();
    }
}
