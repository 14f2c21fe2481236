package io.weir.base;

import io.weir.ColumnStats;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a finished base file holds, for commit metadata.
 *
 * @param path the path the file was written to
 * @param recordCount the number of rows
 * @param fileSizeInBytes the size of the file
 * @param minKey the primary key of the first row as canonical texts ({@link
 *     io.weir.data.ValueStrings}), in key order; empty for a table without primary key or an empty
 *     file
 * @param maxKey the primary key of the last row
 * @param columnStats statistics of every column by field id (docs/format.md §5)
 */
public record BaseFileInfo(
        String path,
        long recordCount,
        long fileSizeInBytes,
        List<String> minKey,
        List<String> maxKey,
        Map<Integer, ColumnStats> columnStats) {

    public BaseFileInfo {
        Objects.requireNonNull(path, "path");
        minKey = List.copyOf(minKey);
        maxKey = List.copyOf(maxKey);
        columnStats = Map.copyOf(columnStats);
    }
}
