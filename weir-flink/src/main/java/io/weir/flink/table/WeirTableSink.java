package io.weir.flink.table;

import io.weir.TableMetadata;
import io.weir.flink.FileIOLoader;
import io.weir.flink.sink.WeirSink;
import io.weir.flink.sink.WriteMode;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

import javax.annotation.Nullable;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The SQL sink of a Weir table: plans an exactly-once {@link WeirSink}.
 *
 * <ul>
 *   <li>Changelog: a table with a primary key is an upsert sink (+I, +U and -D; the planner drops
 *       -U); an append-only table takes inserts only.
 *   <li>INSERT OVERWRITE (the planner allows it in batch mode only): an unpartitioned table is
 *       replaced whole; a partitioned one in the partition of a full static {@code PARTITION (...)}
 *       clause, else exactly in the partitions that receive rows (dynamic overwrite).
 *   <li>The sink does its own bucket shuffle, so it never asks the planner to group rows by
 *       partition.
 *   <li>Write mode ({@code 'write.mode'}): upsert, or bulk insert (the default in batch mode): each
 *       writer sorts its rows and writes sorted base files at the end of the input.
 * </ul>
 */
public final class WeirTableSink
        implements DynamicTableSink, SupportsOverwrite, SupportsPartitioning {
    private final String location;
    private final FileIOLoader io;
    private final RowType rowType;
    private final TableMetadata version;
    @Nullable private final Integer parallelism;
    private final WriteMode writeMode;
    private boolean overwrite;
    private Map<String, String> staticPartition = new LinkedHashMap<>();

    /**
     * The sink of one INSERT into a Weir table, as the table factory creates it.
     *
     * @param location the table's location
     * @param io how the tasks reach the table's files
     * @param rowType the physical row type of the catalog table (what the planner writes): the Weir
     *     table's columns, in its order; nullability and names may differ
     * @param version the schema version the statement writes (its primary key decides the changelog
     *     mode; the writers use its {@code write-buffer-size})
     * @param parallelism the writers' parallelism ({@code sink.parallelism}), or null for the
     *     planner's
     * @param writeMode upsert, or bulk insert (batch execution mode only)
     */
    public WeirTableSink(
            String location,
            FileIOLoader io,
            RowType rowType,
            TableMetadata version,
            @Nullable Integer parallelism,
            WriteMode writeMode) {
        this.location = Objects.requireNonNull(location, "location");
        this.io = Objects.requireNonNull(io, "io");
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        this.version = Objects.requireNonNull(version, "version");
        this.parallelism = parallelism;
        this.writeMode = Objects.requireNonNull(writeMode, "writeMode");
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        // An insert-only query needs no upsert handling from the planner: the writer upserts
        // inserts by key anyway. Declaring upsert mode for it would make Flink 2.3 demand an ON
        // CONFLICT clause (its upsert key, none, differs from the table's primary key).
        return version.schema().hasPrimaryKey() && !requestedMode.containsOnly(RowKind.INSERT)
                ? ChangelogMode.upsert()
                : ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        WeirSink sink =
                WeirSink.builder()
                        .location(location)
                        .fileIO(io)
                        .rowType(rowType)
                        .overwrite(overwrite)
                        .staticPartition(staticPartition)
                        .schemaId(version.schemaId())
                        .writeBufferSize(version.options().writeBufferSize())
                        .writeMode(writeMode)
                        .build();
        return SinkV2Provider.of(sink, parallelism);
    }

    @Override
    public void applyOverwrite(boolean overwrite) {
        this.overwrite = overwrite;
    }

    @Override
    public void applyStaticPartition(Map<String, String> partition) {
        this.staticPartition = new LinkedHashMap<>(partition);
    }

    /** The bucket shuffle routes rows itself. */
    @Override
    public boolean requiresPartitionGrouping(boolean supportsGrouping) {
        return false;
    }

    @Override
    public DynamicTableSink copy() {
        WeirTableSink copy =
                new WeirTableSink(location, io, rowType, version, parallelism, writeMode);
        copy.overwrite = overwrite;
        copy.staticPartition = new LinkedHashMap<>(staticPartition);
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "Weir(" + location + ", " + writeMode + ")";
    }
}
