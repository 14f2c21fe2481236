package io.weir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A data file as recorded in commit metadata.
 *
 * @param path the path relative to the table location
 * @param kind base or log
 * @param partition the partition it belongs to
 * @param bucket the bucket it belongs to
 * @param recordCount number of records (for logs: including deletes)
 * @param sizeInBytes the file's size
 * @param sequence the file's place in its file group's history: a later file's records win over an
 *     earlier file's (for logs assigned at commit, in commit order; a base file from compaction
 *     takes the greatest sequence it merged). -1 until committed.
 * @param schemaId the schema the file was written with
 * @param minKey the smallest primary key in the file, as canonical texts (empty for append-only)
 * @param maxKey the greatest primary key in the file
 * @param columnStats per-column statistics by field id (base files; empty for logs)
 * @param totalBuckets the number of buckets of the layout the file was written for (its rows lie in
 *     bucket {@code hash(key) mod totalBuckets}), or 0 when that is the {@code bucket} option of
 *     schema {@code schemaId}: set only when a partition's count differs from that option (a
 *     rescaled partition, docs/rescale.md)
 */
public record DataFile(
        String path,
        FileKind kind,
        Partition partition,
        int bucket,
        long recordCount,
        long sizeInBytes,
        long sequence,
        int schemaId,
        List<String> minKey,
        List<String> maxKey,
        Map<Integer, ColumnStats> columnStats,
        int totalBuckets) {

    public DataFile(
            String path,
            FileKind kind,
            Partition partition,
            int bucket,
            long recordCount,
            long sizeInBytes,
            long sequence,
            int schemaId,
            List<String> minKey,
            List<String> maxKey,
            Map<Integer, ColumnStats> columnStats) {
        this(
                path,
                kind,
                partition,
                bucket,
                recordCount,
                sizeInBytes,
                sequence,
                schemaId,
                minKey,
                maxKey,
                columnStats,
                0);
    }

    public DataFile {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(partition, "partition");
        minKey = minKey == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(minKey));
        maxKey = maxKey == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(maxKey));
        columnStats = columnStats == null ? Map.of() : Map.copyOf(columnStats);
        if (totalBuckets < 0) {
            throw new IllegalArgumentException("Negative total buckets " + totalBuckets);
        }
    }

    public FileGroupId fileGroup() {
        return new FileGroupId(partition, bucket);
    }

    public DataFile withSequence(long newSequence) {
        return new DataFile(
                path,
                kind,
                partition,
                bucket,
                recordCount,
                sizeInBytes,
                newSequence,
                schemaId,
                minKey,
                maxKey,
                columnStats,
                totalBuckets);
    }

    /**
     * This file with an explicit layout of {@code buckets}, or none (0) if {@code buckets} is the
     * option of its schema, {@code schemaBuckets}.
     */
    public DataFile withTotalBuckets(int buckets, int schemaBuckets) {
        int recorded = buckets == schemaBuckets ? 0 : buckets;
        if (recorded == totalBuckets) {
            return this;
        }
        return new DataFile(
                path,
                kind,
                partition,
                bucket,
                recordCount,
                sizeInBytes,
                sequence,
                schemaId,
                minKey,
                maxKey,
                columnStats,
                recorded);
    }
}
