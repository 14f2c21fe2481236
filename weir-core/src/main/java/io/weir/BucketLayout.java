package io.weir;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * The number of buckets a keyed table's rows are laid out by, per file and per partition
 * (docs/format.md §6.2). A file's count is its {@code total-buckets} field, or else the {@code
 * bucket} option of the schema version it names; every live file of a partition has the same count,
 * the partition's. The table's {@code bucket} option is the layout of writers and of partitions
 * that have no files yet. These are per-file or per-plan computations: no reader or writer looks a
 * count up per row.
 */
public final class BucketLayout {
    private BucketLayout() {}

    /** The number of buckets {@code file} was written for. */
    public static int of(DataFile file, IntFunction<TableMetadata> metadata) {
        return file.totalBuckets() > 0
                ? file.totalBuckets()
                : metadata.apply(file.schemaId()).options().bucket();
    }

    /** The count of each partition of {@code snapshot} that has files, in partition order. */
    public static Map<Partition, Integer> ofPartitions(
            Snapshot snapshot, IntFunction<TableMetadata> metadata) {
        Map<Integer, Integer> bySchema = new HashMap<>();
        Map<Partition, Integer> out = new TreeMap<>();
        for (Map.Entry<FileGroupId, List<DataFile>> e : snapshot.fileGroups().entrySet()) {
            Partition p = e.getKey().partition();
            if (!out.containsKey(p) && !e.getValue().isEmpty()) {
                DataFile f = e.getValue().get(0);
                int n =
                        f.totalBuckets() > 0
                                ? f.totalBuckets()
                                : bySchema.computeIfAbsent(
                                        f.schemaId(), id -> metadata.apply(id).options().bucket());
                out.put(p, n);
            }
        }
        return out;
    }
}
