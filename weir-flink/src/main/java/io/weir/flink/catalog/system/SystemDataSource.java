package io.weir.flink.catalog.system;

import io.weir.Tables;
import io.weir.flink.FileIOLoader;
import io.weir.flink.source.WeirSource;
import io.weir.flink.table.WeirReadOptions;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the data system tables over the table's {@link WeirSource}: {@code $ro}, a bounded read of
 * the base files only; {@code $audit_log}, the table's rows with their change kind as a leading
 * {@code rowkind} column, all emitted as inserts (a bounded snapshot read gives +I rows; a
 * streaming read, {@code scan.incremental.between} or {@code scan.mode = 'from-snapshot'} gives the
 * changes).
 */
final class SystemDataSource implements ScanTableSource {
    /** The options {@code $ro} takes: which snapshot. */
    private static final List<String> RO_OPTIONS =
            List.of(
                    WeirReadOptions.SCAN_SNAPSHOT_ID.key(),
                    WeirReadOptions.SCAN_TAG_NAME.key(),
                    WeirReadOptions.SCAN_TIMESTAMP.key());

    private final SystemTable kind;
    private final String name;
    private final String location;
    private final FileIOLoader io;
    private final RowType rowType;
    private final Map<String, String> options;
    private final boolean streaming;

    SystemDataSource(
            SystemTable kind,
            String name,
            String location,
            FileIOLoader io,
            RowType rowType,
            Map<String, String> options,
            boolean streaming) {
        this.kind = kind;
        this.name = name;
        this.location = location;
        this.io = io;
        this.rowType = rowType;
        this.options = options;
        this.streaming = streaming && kind == SystemTable.AUDIT_LOG;
    }

    /**
     * Checks a query's options: {@code $ro} takes those that choose a snapshot, {@code $audit_log}
     * every read option of the table.
     *
     * @throws ValidationException naming the option and what is allowed
     */
    static Map<String, String> check(
            SystemTable kind,
            String name,
            String location,
            FileIOLoader io,
            Map<String, String> options) {
        List<String> allowed =
                kind == SystemTable.RO
                        ? RO_OPTIONS
                        : WeirReadOptions.options().stream().map(ConfigOption::key).toList();
        for (String key : new TreeMap<>(options).keySet()) {
            if (!allowed.contains(key)) {
                throw new ValidationException(
                        "Unsupported option '"
                                + key
                                + "' for system table "
                                + name
                                + ": it takes only "
                                + allowed);
            }
        }
        builder(location, io, options); // invalid values fail now, naming the option
        return Map.copyOf(options);
    }

    private static WeirSource.Builder builder(
            String location, FileIOLoader io, Map<String, String> options) {
        Map<String, String> resolved =
                WeirReadOptions.resolveTag(Tables.load(io.get(), location), options);
        try {
            return WeirReadOptions.applyTo(WeirSource.builder(), resolved)
                    .location(location)
                    .fileIO(io);
        } catch (io.weir.exceptions.ValidationException e) {
            throw new ValidationException(e.getMessage(), e);
        }
    }

    private WeirSource source() {
        WeirSource.Builder builder = builder(location, io, options).streaming(streaming);
        if (kind == SystemTable.RO) {
            builder.baseFilesOnly();
        }
        try {
            return builder.build();
        } catch (io.weir.exceptions.ValidationException e) {
            throw new ValidationException(
                    "Cannot read system table " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        WeirSource source = source();
        if (kind == SystemTable.RO) {
            return SourceProvider.of(source);
        }
        InternalTypeInfo<RowData> type = InternalTypeInfo.of(rowType);
        String sourceName = name;
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext providerContext, StreamExecutionEnvironment env) {
                return env.fromSource(source, WatermarkStrategy.noWatermarks(), sourceName)
                        .map(new WithRowKind(), type)
                        .name(sourceName + " rowkind");
            }

            @Override
            public boolean isBounded() {
                return source.getBoundedness() == Boundedness.BOUNDED;
            }
        };
    }

    /** A change as an insert whose first column names the change. */
    private static final class WithRowKind implements MapFunction<RowData, RowData> {
        private static final long serialVersionUID = 1L;
        private static final StringData[] KINDS = new StringData[RowKind.values().length];

        static {
            for (RowKind k : RowKind.values()) {
                KINDS[k.ordinal()] = StringData.fromString(k.shortString());
            }
        }

        @Override
        public RowData map(RowData row) {
            JoinedRowData joined =
                    new JoinedRowData(GenericRowData.of(KINDS[row.getRowKind().ordinal()]), row);
            joined.setRowKind(RowKind.INSERT);
            return joined;
        }
    }

    @Override
    public DynamicTableSource copy() {
        return new SystemDataSource(kind, name, location, io, rowType, options, streaming);
    }

    @Override
    public String asSummaryString() {
        return "Weir system table " + name;
    }
}
