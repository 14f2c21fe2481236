package io.weir;

import java.util.ArrayList;
import java.util.List;

/**
 * The unit of reading: one file group of one snapshot and the files to merge (oldest first by
 * sequence, see the read order of docs/format.md).
 */
public record ScanTask(long snapshotId, FileGroupId fileGroup, List<DataFile> files) {
    public ScanTask {
        files = List.copyOf(files);
    }

    /**
     * The files a reader merges over the group's base: every log file, and every base file newer
     * than the oldest base (a bulk insert into a non-empty group). What makes a group due for
     * compaction.
     */
    public List<DataFile> deltaFiles() {
        long base = Long.MAX_VALUE;
        for (DataFile f : files) {
            if (f.kind() == FileKind.BASE) {
                base = Math.min(base, f.sequence());
            }
        }
        List<DataFile> deltas = new ArrayList<>();
        for (DataFile f : files) {
            if (f.kind() == FileKind.LOG || f.sequence() > base) {
                deltas.add(f);
            }
        }
        return deltas;
    }

    public long recordCount() {
        return files.stream().mapToLong(DataFile::recordCount).sum();
    }
}
