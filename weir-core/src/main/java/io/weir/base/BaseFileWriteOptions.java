package io.weir.base;

import io.weir.options.BaseFileCompression;

import java.util.Objects;

/**
 * How a base file is written.
 *
 * @param compression the compression of Parquet pages
 * @param rowGroupSize the buffered size at which a row group is closed; the writer holds about this
 *     much memory
 * @param pageSize the size at which a page of one column is closed (also the dictionary page limit)
 */
public record BaseFileWriteOptions(
        BaseFileCompression compression, long rowGroupSize, int pageSize) {
    public static final long DEFAULT_ROW_GROUP_SIZE = 128L << 20;
    public static final int DEFAULT_PAGE_SIZE = 1 << 20;

    public BaseFileWriteOptions {
        Objects.requireNonNull(compression, "compression");
        if (rowGroupSize < 1024 || pageSize < 64 || pageSize > rowGroupSize) {
            throw new IllegalArgumentException(
                    "Invalid base file sizes: row group "
                            + rowGroupSize
                            + " (at least 1 KiB) and page "
                            + pageSize
                            + " (at least 64 bytes, at most the row group size)");
        }
    }

    /** The default sizes with the given compression. */
    public static BaseFileWriteOptions of(BaseFileCompression compression) {
        return new BaseFileWriteOptions(compression, DEFAULT_ROW_GROUP_SIZE, DEFAULT_PAGE_SIZE);
    }
}
