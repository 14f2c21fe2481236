package io.weir.options;

/** Compression of Parquet base file pages. */
public enum BaseFileCompression {
    UNCOMPRESSED,
    SNAPPY,
    ZSTD
}
