package io.weir.flink.catalog.system;

import io.weir.Table;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The read-only tables of a table's metadata, named {@code <table>$<name>}: {@code SELECT * FROM
 * c.db.`t$commits`}. Their rows are read from the table's metadata when the query runs.
 */
public enum SystemTable {
    /** One row per commit, oldest first. */
    COMMITS(
            SystemTableRows::commits,
            field("commit_id", new BigIntType(false), "The commit's id: 1, 2, 3, ..."),
            field(
                    "commit_time",
                    new LocalZonedTimestampType(false, 3),
                    "When the commit was made."),
            field(
                    "commit_kind",
                    VarCharType.STRING_TYPE.copy(false),
                    "APPEND, COMPACT, OVERWRITE, CLEAN or ROLLBACK."),
            field(
                    "records_added",
                    new BigIntType(false),
                    "Records in the files the commit added (for logs: including deletes)."),
            field(
                    "records_removed",
                    new BigIntType(false),
                    "Records in the files the commit removed."),
            field("files_added", new IntType(false), "Number of files the commit added."),
            field("files_removed", new IntType(false), "Number of files the commit removed."),
            field(
                    "writer_id",
                    VarCharType.STRING_TYPE,
                    "Who committed (a Flink sink's writer id), if it said."),
            field(
                    "checkpoint_id",
                    new BigIntType(),
                    "The writer's checkpoint the commit holds, if any.")),
    /** One row per live file of the latest snapshot, by file group. */
    FILES(
            SystemTableRows::files,
            field(
                    "file_path",
                    VarCharType.STRING_TYPE.copy(false),
                    "The file's path, relative to the table's location."),
            field(
                    "partition_path",
                    VarCharType.STRING_TYPE.copy(false),
                    "The partition's directory, such as 'dt=2024-01-01' (empty if unpartitioned)."),
            field("bucket", new IntType(false), "The bucket."),
            field(
                    "file_kind",
                    VarCharType.STRING_TYPE.copy(false),
                    "BASE (sorted Parquet) or LOG (row log)."),
            field("file_size", new BigIntType(false), "Size in bytes."),
            field(
                    "record_count",
                    new BigIntType(false),
                    "Records in the file (for logs: including deletes)."),
            field(
                    "sequence_number",
                    new BigIntType(false),
                    "The file's place in its file group's history: a later file's records win."));

    /** Separates a table's name from its system table's: {@code t$commits}. */
    public static final char SEPARATOR = '$';

    private final Function<Table, List<RowData>> rows;
    private final RowType rowType;

    SystemTable(Function<Table, List<RowData>> rows, RowType.RowField... fields) {
        this.rows = rows;
        this.rowType = new RowType(false, Arrays.asList(fields));
    }

    /** The name after the separator: {@code commits}. */
    public String suffix() {
        return name().toLowerCase(Locale.ROOT);
    }

    public RowType rowType() {
        return rowType;
    }

    /** The rows of this system table of {@code table}, as of its latest commit. */
    public List<RowData> rows(Table table) {
        return rows.apply(table);
    }

    /** The system table of a suffix, if there is one. */
    public static Optional<SystemTable> of(String suffix) {
        return Arrays.stream(values()).filter(t -> t.suffix().equals(suffix)).findFirst();
    }

    /** The suffixes of every system table, for messages. */
    public static List<String> suffixes() {
        return Arrays.stream(values()).map(SystemTable::suffix).toList();
    }

    private static RowType.RowField field(String name, LogicalType type, String description) {
        return new RowType.RowField(name, type, description);
    }
}
