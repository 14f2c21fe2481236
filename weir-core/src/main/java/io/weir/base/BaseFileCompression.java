package io.weir.base;

/** Compression of Parquet base file pages. */
public enum BaseFileCompression {
    UNCOMPRESSED,
    SNAPPY,
    ZSTD
}
