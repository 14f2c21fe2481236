package io.weir.base;

import io.weir.options.BaseFileCompression;
import io.weir.options.TableOptions;

import java.util.Objects;

/**
 * How a base file is written.
 *
 * @param compression the compression of Parquet pages
 * @param rowGroupSize the buffered size at which a row group is closed; the writer holds about this
 *     much memory
 * @param pageSize the size at which a page of one column is closed (also the dictionary page limit)
 * @param deltaEncoding whether integer columns may be written DELTA_BINARY_PACKED where that is
 *     smaller (docs/format.md §5.2), or only plain and dictionary values
 */
public record BaseFileWriteOptions(
        BaseFileCompression compression, long rowGroupSize, int pageSize, boolean deltaEncoding) {
    public static final long DEFAULT_ROW_GROUP_SIZE =
            TableOptions.FILE_ROW_GROUP_SIZE.defaultValue().bytes();
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

    /** The given compression and sizes, with delta encoding where it pays (the default). */
    public BaseFileWriteOptions(BaseFileCompression compression, long rowGroupSize, int pageSize) {
        this(compression, rowGroupSize, pageSize, true);
    }

    /** The default sizes with the given compression. */
    public static BaseFileWriteOptions of(BaseFileCompression compression) {
        return new BaseFileWriteOptions(compression, DEFAULT_ROW_GROUP_SIZE, DEFAULT_PAGE_SIZE);
    }

    /**
     * A table's options for its base files: {@code file.compression}, {@code file.row-group-size}
     * and {@code file.delta-encoding}, with the default page size.
     */
    public static BaseFileWriteOptions of(TableOptions options) {
        return new BaseFileWriteOptions(
                options.fileCompression(),
                options.fileRowGroupSize(),
                DEFAULT_PAGE_SIZE,
                options.fileDeltaEncoding());
    }

    /** These options with pages of {@code size} bytes. */
    public BaseFileWriteOptions withPageSize(int size) {
        return new BaseFileWriteOptions(compression, rowGroupSize, size, deltaEncoding);
    }

    /** These options with delta encoding allowed or not. */
    public BaseFileWriteOptions withDeltaEncoding(boolean allowed) {
        return new BaseFileWriteOptions(compression, rowGroupSize, pageSize, allowed);
    }
}
