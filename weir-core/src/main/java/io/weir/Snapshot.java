package io.weir;

import java.util.List;
import java.util.Map;

/** The table as it was right after one commit: its live files by file group. */
public interface Snapshot {
    /** The commit id; 0 for the empty table before its first commit. */
    long id();

    long timestampMillis();

    int schemaId();

    /**
     * Live files by file group: base files first (by key range), then logs by ascending sequence.
     */
    Map<FileGroupId, List<DataFile>> fileGroups();

    /** Every live file. */
    default List<DataFile> files() {
        return fileGroups().values().stream().flatMap(List::stream).toList();
    }
}
