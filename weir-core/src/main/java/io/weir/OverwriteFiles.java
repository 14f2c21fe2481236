package io.weir;

import java.util.Collection;

/**
 * Replaces the rows of some partitions (or of the whole table) with the rows of new files, in one
 * commit: {@code table.newOverwrite().overwritePartition(p).addFiles(files).commit()}. The files
 * removed are those live in the overwritten partitions when the commit lands.
 */
public interface OverwriteFiles extends TableUpdate<CommitResult> {
    OverwriteFiles addFiles(Collection<DataFile> files);

    /** Replace this partition's rows (may be called for several partitions). */
    OverwriteFiles overwritePartition(Partition partition);

    /** Replace every row of the table. */
    OverwriteFiles overwriteAll();

    OverwriteFiles identity(String writerId, long checkpointId);
}
