package io.weir.flink.sink;

import io.weir.Schema;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.Tables;
import io.weir.exceptions.ValidationException;
import io.weir.flink.FileIOLoader;
import io.weir.flink.FlinkTypes;
import io.weir.flink.sink.internal.CommitPlan;
import io.weir.flink.sink.internal.StaticPartitions;
import io.weir.io.FileIO;
import io.weir.partition.PartitionHash;
import io.weir.partition.TimePartitioning;
import io.weir.types.DataType;

import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.function.SerializableSupplier;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a {@link WeirSink}. Only the location is required:
 *
 * <pre>{@code
 * WeirSink sink = WeirSink.builder().location("/data/orders").build();
 * rows.sinkTo(sink);   // rows: DataStream<RowData> of type sink.inputType()
 * }</pre>
 *
 * {@link #build()} loads the table's metadata and validates everything eagerly.
 */
public final class WeirSinkBuilder {
    public static final String DEFAULT_COMMIT_USER = "weir";

    private SerializableSupplier<FileIO> io;
    private String location;
    private RowType rowType;
    private boolean overwrite;
    private Map<String, String> staticPartition = Map.of();
    private long writeBufferSize = -1;
    private WriteMode writeMode = WriteMode.UPSERT;
    private String spillDirectory;
    private String commitUser = DEFAULT_COMMIT_USER;
    private WeirSinkHook hook;
    private int schemaId = -1;

    WeirSinkBuilder() {}

    /** The table to write (required); it must exist. */
    public WeirSinkBuilder location(String location) {
        this.location = location;
        return this;
    }

    /**
     * How tasks reach the table's files (default: the file system of the location's scheme with the
     * default storage options, {@link FileIOLoader#of(String)}).
     */
    public WeirSinkBuilder fileIO(SerializableSupplier<FileIO> io) {
        this.io = Objects.requireNonNull(io, "io");
        return this;
    }

    /**
     * The type of the input rows (default: the table's row type). It must have the table's columns'
     * types, in the table's order; nullability and names may differ.
     */
    public WeirSinkBuilder rowType(RowType rowType) {
        this.rowType = rowType;
        return this;
    }

    /**
     * INSERT OVERWRITE (batch execution mode only): replace the whole table if it is not
     * partitioned; else the partition fixed by {@link #staticPartition} if it names every partition
     * key, otherwise exactly the partitions that receive rows.
     */
    public WeirSinkBuilder overwrite(boolean overwrite) {
        this.overwrite = overwrite;
        return this;
    }

    /**
     * Partition key values fixed by the statement ({@code PARTITION (dt='2024-01-01')}), as the SQL
     * planner passes them: values as SQL literal texts. Without {@link #overwrite} it changes
     * nothing (the rows carry the values).
     */
    public WeirSinkBuilder staticPartition(Map<String, String> values) {
        this.staticPartition = new LinkedHashMap<>(values);
        return this;
    }

    /** Overrides the table's {@code write-buffer-size} for this sink's writers (bytes). */
    public WeirSinkBuilder writeBufferSize(long bytes) {
        ValidationException.check(bytes > 0, "Invalid write buffer size %s", bytes);
        this.writeBufferSize = bytes;
        return this;
    }

    /**
     * How the writers write (default {@link WriteMode#UPSERT}). {@link WriteMode#BULK_INSERT} needs
     * batch execution mode: each writer sorts all its rows and writes sorted base files at the end
     * of the input (docs/bulk-insert.md).
     */
    public WeirSinkBuilder writeMode(WriteMode mode) {
        this.writeMode = Objects.requireNonNull(mode, "mode");
        return this;
    }

    /**
     * Bulk insert: the local directory of the writers' spill files (default: the task manager's
     * {@code java.io.tmpdir}).
     */
    public WeirSinkBuilder spillDirectory(String directory) {
        this.spillDirectory = Objects.requireNonNull(directory, "directory");
        return this;
    }

    /**
     * The prefix of the writer ids this sink commits under (default {@value DEFAULT_COMMIT_USER}):
     * shows in the table's commits who wrote them.
     */
    public WeirSinkBuilder commitUser(String commitUser) {
        ValidationException.check(
                commitUser != null && !commitUser.isBlank(),
                "Invalid commit user '%s'",
                commitUser);
        this.commitUser = commitUser;
        return this;
    }

    /** A test seam; see {@link WeirSinkHook}. */
    public WeirSinkBuilder hook(WeirSinkHook hook) {
        this.hook = hook;
        return this;
    }

    /**
     * Writes rows of this schema version of the table (default: its current one when the sink is
     * built). The sink keeps writing them whatever schema changes follow; readers map them by field
     * id (docs/format.md, "Schema evolution").
     */
    public WeirSinkBuilder schemaId(int schemaId) {
        ValidationException.check(schemaId >= 0, "Invalid schema id %s: must be >= 0", schemaId);
        this.schemaId = schemaId;
        return this;
    }

    /**
     * Loads the table's metadata and builds the sink.
     *
     * @throws io.weir.exceptions.NoSuchTableException if there is no table at the location
     * @throws ValidationException if the row type or the static partition does not fit the table
     */
    public WeirSink build() {
        ValidationException.check(location != null, "A Weir sink needs the table's location");
        SerializableSupplier<FileIO> io = this.io != null ? this.io : FileIOLoader.of(location);
        Table table = Tables.load(io.get(), location);
        TableMetadata version = schemaId >= 0 ? table.metadata(schemaId) : table.metadata();
        Schema schema = version.schema();
        RowType type = rowType != null ? rowType : FlinkTypes.toFlink(schema);
        checkRowType(type, schema);
        int[] partitionKeys = schema.partitionKeyPositions();
        List<String> staticValues = StaticPartitions.resolve(location, schema, staticPartition);
        CommitPlan plan =
                overwrite
                        ? CommitPlan.overwrite(partitionKeys.length > 0, staticValues)
                        : CommitPlan.append();
        return new WeirSink(
                io,
                location,
                type,
                version.options().bucket(),
                version.schemaId(),
                schema.primaryKeyPositions(),
                PartitionHash.of(schema, TimePartitioning.of(version)),
                plan,
                writeBufferSize,
                writeMode,
                spillDirectory,
                commitUser,
                !version.options().writeOnly(),
                hook);
    }

    private void checkRowType(RowType type, Schema schema) {
        List<String> columns = schema.rowType().names();
        ValidationException.check(
                type.getFieldCount() == columns.size(),
                "Cannot write rows of type %s to table %s: it has %s columns %s",
                type.asSummaryString(),
                location,
                columns.size(),
                columns);
        for (int i = 0; i < columns.size(); i++) {
            DataType expected = schema.rowType().type(i);
            DataType actual = FlinkTypes.toWeir(type.getTypeAt(i), type.getFieldNames().get(i));
            ValidationException.check(
                    expected.asNullable().equals(actual.asNullable()),
                    "Cannot write rows of type %s to table %s: field %s ('%s') is %s, column '%s'"
                            + " is %s",
                    type.asSummaryString(),
                    location,
                    i,
                    type.getFieldNames().get(i),
                    actual,
                    columns.get(i),
                    expected);
        }
    }
}
