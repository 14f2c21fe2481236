package io.weir.options;

/**
 * The files into which an incremental compaction writes the rows of the newest sorted runs it
 * merges (docs/table-services.md, "Incremental compaction"): Parquet base files, smaller and
 * columnar, or one row log file, cheaper to write and to merge again. Retractions always go to a
 * log file.
 */
public enum RunFormat {
    PARQUET,
    LOG
}
