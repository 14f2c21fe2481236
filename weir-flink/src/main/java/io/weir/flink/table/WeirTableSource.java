package io.weir.flink.table;

import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.exceptions.ValidationException;
import io.weir.expressions.Expression;
import io.weir.expressions.Expressions;
import io.weir.flink.FileIOLoader;
import io.weir.flink.FlinkTypes;
import io.weir.flink.compat.VersionedLookupSource;
import io.weir.flink.lookup.LookupBucketPartitioner;
import io.weir.flink.lookup.WeirLookupFunction;
import io.weir.flink.source.StartMode;
import io.weir.flink.source.WeirSource;
import io.weir.io.FileIO;
import io.weir.io.LocalFileIO;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsAggregatePushDown;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLimitPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.expressions.AggregateExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.function.SerializableSupplier;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Weir table as a Flink SQL scan source, over {@link WeirSource}. The read options are those of
 * {@link WeirReadOptions}; other keys in the options map are ignored.
 *
 * <p>Bounded or not: in batch mode ({@code streaming == false}) every read is bounded. In streaming
 * mode a read follows new commits, unless {@code scan.incremental.between} asks for a fixed range.
 *
 * <p>Changelog: a bounded snapshot read is insert-only. Change reads (streaming, {@code
 * scan.incremental.between}, {@code scan.mode = 'from-snapshot'}) produce +I, -U, +U and -D on
 * tables with a primary key, and +I and -D (rows removed by an overwrite) on append-only tables.
 *
 * <p>Push-down: projection (top-level columns); filters that {@link FilterTranslator} translates
 * exactly, which prune files and are applied row by row (they also stay with the planner, which is
 * cheap and keeps results right whatever Weir prunes); a limit, in bounded reads, per reader; a
 * {@code COUNT(*)} without filter or grouping in batch snapshot reads, which counts compacted file
 * groups from metadata without reading them ({@link WeirSource.Builder#countRows()}).
 *
 * <p>Lookup: as the dimension table of a lookup join, the latest snapshot, refreshed on new commits
 * ({@link WeirLookupFunction}, docs/lookup-join.md).
 */
public final class WeirTableSource
        implements ScanTableSource,
                VersionedLookupSource,
                SupportsProjectionPushDown,
                SupportsFilterPushDown,
                SupportsLimitPushDown,
                SupportsAggregatePushDown {
    /** Flink's {@code COUNT(*)}; a planner class, which connectors cannot depend on. */
    private static final String COUNT_STAR =
            "org.apache.flink.table.planner.functions.aggfunctions.Count1AggFunction";

    private final String location;
    private final Table table;
    private final TableMetadata version;
    private final Map<String, String> options;
    private final boolean streaming;
    private final SerializableSupplier<FileIO> io;
    private List<String> columns;
    private List<Expression> filters = new ArrayList<>();
    private long limit = -1;
    private boolean countRows;
    private LookupBucketPartitioner lookupPartitioner;

    /**
     * A source over {@code table}'s file system: local tables need nothing more; other file systems
     * must have a {@link Serializable} {@link FileIO} (or use the other constructor).
     *
     * @param location the table location
     * @param table the loaded table (for its schema and file system)
     * @param options the table's options; the read options among them are used
     * @param streaming whether the job runs in streaming mode: {@code
     *     context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE) ==
     *     RuntimeExecutionMode.STREAMING} in a factory
     */
    public WeirTableSource(
            String location, Table table, Map<String, String> options, boolean streaming) {
        this(location, table, options, streaming, ioOf(table));
    }

    /** As the other constructor, with the file system to open on each task. */
    public WeirTableSource(
            String location,
            Table table,
            Map<String, String> options,
            boolean streaming,
            SerializableSupplier<FileIO> io) {
        this(location, table, table.metadata(), options, streaming, io);
    }

    /**
     * As the other constructors, reading the columns of schema version {@code version} (the one the
     * query's table declares).
     */
    public WeirTableSource(
            String location,
            Table table,
            TableMetadata version,
            Map<String, String> options,
            boolean streaming,
            SerializableSupplier<FileIO> io) {
        this.location = location;
        this.table = table;
        this.version = version;
        this.options = Map.copyOf(WeirReadOptions.resolveTag(table, options));
        this.streaming = streaming;
        this.io = io;
        // Fail at planning time, naming the option, rather than when the job starts.
        WeirReadOptions.applyTo(WeirSource.builder(), this.options);
    }

    private static SerializableSupplier<FileIO> ioOf(Table table) {
        FileIO io = table.io();
        if (io instanceof LocalFileIO) {
            return FileIOLoader.of(table.location());
        } else if (io instanceof Serializable) {
            return () -> io;
        }
        throw new ValidationException(
                "Cannot read table "
                        + table.location()
                        + " in Flink: its file system "
                        + io.getClass().getName()
                        + " is not serializable; pass a supplier of it");
    }

    /** The source this table source runs. */
    WeirSource source() {
        WeirSource.Builder builder =
                WeirReadOptions.applyTo(WeirSource.builder(), options)
                        .location(location)
                        .fileIO(io)
                        .streaming(streaming)
                        .schemaId(version.schemaId())
                        .filter(Expressions.and(filters));
        if (columns != null) {
            builder.select(columns);
        }
        if (limit >= 0) {
            builder.limit(limit);
        }
        if (countRows) {
            builder.countRows();
        }
        return builder.build();
    }

    @Override
    public ChangelogMode getChangelogMode() {
        boolean changes =
                streaming
                        || WeirReadOptions.isIncremental(options)
                        || WeirReadOptions.startMode(options) == StartMode.FROM_SNAPSHOT;
        if (!changes) {
            return ChangelogMode.insertOnly();
        } else if (version.schema().hasPrimaryKey()) {
            return ChangelogMode.all();
        }
        return ChangelogMode.newBuilder()
                .addContainedKind(RowKind.INSERT)
                .addContainedKind(RowKind.DELETE)
                .build();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        return SourceProvider.of(source());
    }

    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        List<String> names = columns != null ? columns : version.schema().rowType().names();
        RowType full = FlinkTypes.toFlink(version.schema());
        List<RowType.RowField> fields = new ArrayList<>();
        for (String name : names) {
            fields.add(full.getFields().get(full.getFieldIndex(name)));
        }
        int[][] paths = context.getKeys();
        int[] keys = new int[paths.length];
        for (int i = 0; i < paths.length; i++) {
            if (paths[i].length != 1) {
                throw new ValidationException(
                        "Cannot look up table "
                                + table.location()
                                + " by a nested field: only top-level columns can be join keys");
            }
            keys[i] = paths[i][0];
        }
        // Flink 2 asks for it after this, to send each probe to the subtask of its bucket.
        lookupPartitioner =
                LookupBucketPartitioner.of(
                        new RowType(false, fields),
                        keys,
                        version.schema().primaryKey(),
                        version.options().bucket());
        return LookupFunctionProvider.of(
                new WeirLookupFunction(
                        location,
                        io,
                        names,
                        new RowType(false, fields),
                        keys,
                        version.schema().primaryKey(),
                        options,
                        version.schemaId()));
    }

    @Override
    public Optional<LookupBucketPartitioner> lookupPartitioner() {
        return Optional.ofNullable(lookupPartitioner);
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(int[][] projectedFields, DataType producedDataType) {
        List<String> current = columns != null ? columns : version.schema().rowType().names();
        List<String> projected = new ArrayList<>();
        for (int[] path : projectedFields) {
            projected.add(current.get(path[0]));
        }
        columns = projected;
    }

    @Override
    public Result applyFilters(List<ResolvedExpression> flinkFilters) {
        FilterTranslator translator = new FilterTranslator(version.schema().rowType());
        List<ResolvedExpression> accepted = new ArrayList<>();
        for (ResolvedExpression filter : flinkFilters) {
            Optional<Expression> translated = translator.translate(filter);
            if (translated.isPresent()) {
                filters.add(translated.get());
                accepted.add(filter);
            }
        }
        return Result.of(accepted, flinkFilters);
    }

    @Override
    public void applyLimit(long limit) {
        this.limit = limit;
    }

    @Override
    public boolean applyAggregates(
            List<int[]> groupingSets,
            List<AggregateExpression> aggregates,
            DataType producedDataType) {
        boolean countStar =
                groupingSets.size() == 1
                        && groupingSets.get(0).length == 0
                        && aggregates.size() == 1
                        && aggregates
                                .get(0)
                                .getFunctionDefinition()
                                .getClass()
                                .getName()
                                .equals(COUNT_STAR)
                        && producedDataType.getLogicalType().getChildren().size() == 1
                        && producedDataType.getLogicalType().getChildren().get(0).getTypeRoot()
                                == LogicalTypeRoot.BIGINT;
        if (!countStar
                || !getChangelogMode().containsOnly(RowKind.INSERT)
                || !filters.isEmpty()
                || limit >= 0) {
            return false;
        }
        countRows = true;
        return true;
    }

    @Override
    public DynamicTableSource copy() {
        WeirTableSource copy =
                new WeirTableSource(location, table, version, options, streaming, io);
        copy.columns = columns == null ? null : List.copyOf(columns);
        copy.filters = new ArrayList<>(filters);
        copy.limit = limit;
        copy.countRows = countRows;
        copy.lookupPartitioner = lookupPartitioner;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "Weir";
    }
}
