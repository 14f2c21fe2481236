package io.weir.flink.catalog.system;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The read-only tables of a table's metadata and data, named {@code <table>$<name>}: {@code SELECT
 * * FROM c.db.`t$commits`}. Metadata tables compute their rows from the table's metadata when the
 * query runs; {@link #RO} and {@link #AUDIT_LOG} read the table's data. The columns are documented
 * in docs/flink-sql.md; their descriptions here are what {@code DESCRIBE} shows.
 */
public enum SystemTable {
    /** One row per retained commit, oldest first. Also named {@code snapshots}. */
    COMMITS(
            true,
            SystemTableRows::commits,
            field("commit_id", new BigIntType(false), "The commit's id: 1, 2, 3, ..."),
            field(
                    "commit_time",
                    new LocalZonedTimestampType(false, 3),
                    "When the commit was made."),
            field("commit_kind", string(false), "APPEND, COMPACT, OVERWRITE, CLEAN or ROLLBACK."),
            field(
                    "records_added",
                    new BigIntType(false),
                    "Records in the files the commit added (for logs: including deletes)."),
            field(
                    "records_removed",
                    new BigIntType(),
                    "Records in the files the commit removed; null for the earliest retained commit"
                            + " if it removed files (the state before it has expired)."),
            field("files_added", new IntType(false), "Number of files the commit added."),
            field("files_removed", new IntType(false), "Number of files the commit removed."),
            field(
                    "writer_id",
                    string(true),
                    "Who committed (a Flink sink's writer id), if it said."),
            field(
                    "checkpoint_id",
                    new BigIntType(),
                    "The writer's checkpoint the commit holds, if any."),
            field("schema_id", new IntType(false), "The schema in force after the commit."),
            field(
                    "rollback_to",
                    new BigIntType(),
                    "For a ROLLBACK: the commit whose state it restored; else null."),
            field("total_files", new BigIntType(false), "Live files after the commit."),
            field(
                    "total_records",
                    new BigIntType(false),
                    "Records in the live files after the commit (for logs: including deletes and"
                            + " older versions of a key)."),
            field(
                    "total_bytes",
                    new BigIntType(false),
                    "Bytes of the live files after the commit.")),
    /** One row per live file of the snapshot, by file group. */
    FILES(
            true,
            SystemTableRows::files,
            field("file_path", string(false), "The file's path, relative to the table's location."),
            field(
                    "partition_path",
                    string(false),
                    "The partition's directory, such as 'dt=2024-01-01' (empty if unpartitioned)."),
            field("bucket", new IntType(false), "The bucket."),
            field("file_kind", string(false), "BASE (sorted Parquet) or LOG (row log)."),
            field("file_size", new BigIntType(false), "Size in bytes."),
            field(
                    "record_count",
                    new BigIntType(false),
                    "Records in the file (for logs: including deletes)."),
            field(
                    "sequence_number",
                    new BigIntType(false),
                    "The file's place in its file group's history: a later file's records win."),
            field("schema_id", new IntType(false), "The schema the file was written with.")),
    /** One row per schema version. */
    SCHEMAS(
            false,
            SystemTableRows::schemas,
            field("schema_id", new IntType(false), "The schema version: 0, 1, 2, ..."),
            field(
                    "fields",
                    string(false),
                    "The columns as a JSON array of {id, name, type[, description]}; types in SQL"
                            + " form."),
            field("partition_keys", string(false), "The partition keys, a JSON array."),
            field("primary_keys", string(false), "The primary key's columns, a JSON array."),
            field("options", string(false), "The table options stored, a JSON object."),
            field("comment", string(true), "The table comment: always null (none is stored)."),
            field(
                    "update_time",
                    new LocalZonedTimestampType(false, 3),
                    "When the schema version was created.")),
    /** The options stored with the schema in force at the snapshot. */
    OPTIONS(
            true,
            SystemTableRows::options,
            field("key", string(false), "The option's key."),
            field("value", string(false), "Its value.")),
    /** One row per partition with live files. */
    PARTITIONS(
            true,
            SystemTableRows::partitions,
            field(
                    "partition_path",
                    string(false),
                    "The partition's directory (empty if unpartitioned)."),
            field(
                    "record_count",
                    new BigIntType(false),
                    "Records in its live files (for logs: including deletes and older versions)."),
            field("file_size_in_bytes", new BigIntType(false), "Bytes of its live files."),
            field("file_count", new BigIntType(false), "Number of its live files."),
            field(
                    "last_update_time",
                    new LocalZonedTimestampType(3),
                    "When the newest retained commit that added one of its live files was made;"
                            + " null if all were added by expired commits."),
            field(
                    "total_buckets",
                    new IntType(false),
                    "The number of buckets its rows are laid out by: the table's bucket option,"
                            + " unless the partition was rescaled apart (docs/rescale.md).")),
    /** One row per file group (partition, bucket) with live files: the small-file view. */
    BUCKETS(
            true,
            SystemTableRows::buckets,
            field(
                    "partition_path",
                    string(false),
                    "The partition's directory (empty if unpartitioned)."),
            field("bucket", new IntType(false), "The bucket."),
            field("base_files", new IntType(false), "Live base (Parquet) files."),
            field(
                    "log_files",
                    new IntType(false),
                    "Live log files: what compaction would fold into the base."),
            field("record_count", new BigIntType(false), "Records in the live files."),
            field("file_size_in_bytes", new BigIntType(false), "Bytes of the live files."),
            field(
                    "last_update_time",
                    new LocalZonedTimestampType(3),
                    "When the newest retained commit that added one of its live files was made;"
                            + " null if all were added by expired commits.")),
    /** One row per reader lease. */
    CONSUMERS(
            false,
            SystemTableRows::consumers,
            field("consumer_id", string(false), "The reader's consumer id."),
            field(
                    "commit_id",
                    new BigIntType(false),
                    "The oldest commit the reader still needs; expiry keeps it and later ones."),
            field(
                    "expire_time",
                    new LocalZonedTimestampType(false, 3),
                    "When the lease ends unless the reader renews it."),
            field("live", new BooleanType(false), "Whether the lease has not ended yet.")),
    /** One row per tag. */
    TAGS(
            false,
            SystemTableRows::tags,
            field("tag_name", string(false), "The tag's name."),
            field("commit_id", new BigIntType(false), "The commit whose snapshot it names."),
            field("schema_id", new IntType(false), "The schema of that snapshot."),
            field(
                    "commit_time",
                    new LocalZonedTimestampType(false, 3),
                    "When that commit was made."),
            field(
                    "create_time",
                    new LocalZonedTimestampType(false, 3),
                    "When the tag was created."),
            field("file_count", new BigIntType(false), "Files of the tagged snapshot."),
            field(
                    "record_count",
                    new BigIntType(false),
                    "Records in those files (for logs: including deletes and older versions).")),
    /** The table's rows, read from base files only (read-optimized): rows of logs are left out. */
    RO(true, null),
    /** The table's changes, each with its row kind in a {@code rowkind} column. */
    AUDIT_LOG(true, null);

    /** Separates a table's name from its system table's: {@code t$commits}. */
    public static final char SEPARATOR = '$';

    /** Another name of {@link #COMMITS}, as Paimon users know it. */
    public static final String SNAPSHOTS = "snapshots";

    private final boolean timeTravel;
    private final Function<SystemScan, List<RowData>> rows;
    private final RowType rowType;

    SystemTable(
            boolean timeTravel,
            Function<SystemScan, List<RowData>> rows,
            RowType.RowField... fields) {
        this.timeTravel = timeTravel;
        this.rows = rows;
        this.rowType = rows == null ? null : new RowType(false, Arrays.asList(fields));
    }

    /** The name after the separator: {@code commits}. */
    public String suffix() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the rows come from metadata (else from the table's data, with its own columns). */
    public boolean isMetadata() {
        return rows != null;
    }

    /** Whether {@code scan.snapshot-id}, {@code scan.tag-name} and {@code scan.timestamp} apply. */
    public boolean timeTravel() {
        return timeTravel;
    }

    /** The columns of a metadata table. */
    public RowType rowType() {
        if (rowType == null) {
            throw new IllegalStateException(name() + " has the columns of its table");
        }
        return rowType;
    }

    /** The rows of this metadata table. */
    List<RowData> rows(SystemScan scan) {
        return rows.apply(scan);
    }

    /** The system table of a suffix, if there is one. */
    public static Optional<SystemTable> of(String suffix) {
        if (SNAPSHOTS.equals(suffix)) {
            return Optional.of(COMMITS);
        }
        return Arrays.stream(values()).filter(t -> t.suffix().equals(suffix)).findFirst();
    }

    /** The suffixes of every system table, for messages. */
    public static List<String> suffixes() {
        List<String> all = new ArrayList<>();
        for (SystemTable t : values()) {
            all.add(t.suffix());
            if (t == COMMITS) {
                all.add(SNAPSHOTS);
            }
        }
        return all;
    }

    private static VarCharType string(boolean nullable) {
        return new VarCharType(nullable, VarCharType.MAX_LENGTH);
    }

    private static RowType.RowField field(String name, LogicalType type, String description) {
        return new RowType.RowField(name, type, description);
    }
}
