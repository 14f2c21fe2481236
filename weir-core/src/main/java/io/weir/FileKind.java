package io.weir;

/** The two kinds of data file. */
public enum FileKind {
    /** A Parquet file holding the merged state of a file group, sorted by primary key. */
    BASE,
    /** A row log file (docs/format.md) holding changes written after the base. */
    LOG
}
