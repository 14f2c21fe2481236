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
     * than the oldest base (a bulk insert into a non-empty group, or an incremental compaction's
     * output).
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

    /**
     * The sorted runs of {@link #deltaFiles()}: the files of one sequence and kind form one run (a
     * log file; the base files of one bulk insert or of one incremental compaction, which hold
     * disjoint keys). What makes a group due for compaction: a reader merges one source per run.
     */
    public int deltaRuns() {
        List<DataFile> deltas = deltaFiles();
        int runs = 0;
        for (int i = 0; i < deltas.size(); i++) {
            DataFile f = deltas.get(i);
            boolean first = true;
            for (int j = 0; j < i && first; j++) {
                DataFile g = deltas.get(j);
                first = g.sequence() != f.sequence() || g.kind() != f.kind();
            }
            if (first) {
                runs++;
            }
        }
        return runs;
    }

    public long recordCount() {
        return files.stream().mapToLong(DataFile::recordCount).sum();
    }
}
