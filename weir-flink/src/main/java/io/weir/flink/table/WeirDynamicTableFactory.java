package io.weir.flink.table;

import io.weir.Schema;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.Tables;
import io.weir.exceptions.NoSuchTableException;
import io.weir.exceptions.TableAlreadyExistsException;
import io.weir.flink.FileIOLoader;
import io.weir.flink.FlinkSchemas;
import io.weir.flink.lookup.WeirLookupOptions;
import io.weir.flink.sink.WriteMode;
import io.weir.io.FileIO;
import io.weir.options.MergeOptions;
import io.weir.options.StorageOptions;
import io.weir.options.TableOptions;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The {@code weir} connector: {@code CREATE TABLE t (...) WITH ('connector' = 'weir', 'path' =
 * '...')}. On first use it validates the options (unknown keys fail listing the valid ones; values
 * are checked by the core option parsers) and opens the table at {@code path}: if there is none, it
 * creates one from the DDL (columns, {@code PRIMARY KEY ... NOT ENFORCED}, {@code PARTITIONED BY},
 * table options), committing nothing; if there is one, the DDL must match it.
 *
 * <p>Storage options ({@code s3.*}, {@code hadoop.*}) say how to reach the location; they come from
 * Flink's configuration, the catalog and the DDL, in that order of precedence (the DDL's win), and
 * are never stored with the table.
 */
public class WeirDynamicTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {
    public static final String IDENTIFIER = "weir";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(WeirConnectorOptions.PATH);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options =
                new LinkedHashSet<>(WeirConnectorOptions.TABLE_OPTIONS.values());
        options.addAll(WeirConnectorOptions.STORAGE_OPTIONS.values());
        options.add(WeirConnectorOptions.SINK_PARALLELISM);
        options.addAll(WeirWriteOptions.options());
        options.addAll(readOptions());
        return options;
    }

    /**
     * The source's options ({@code scan.*} in {@code WeirReadOptions}, {@code lookup.*} in {@code
     * WeirLookupOptions}). INTEGRATION: the one place where they join the connector's options.
     */
    static Set<ConfigOption<?>> readOptions() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>(WeirReadOptions.options());
        options.addAll(WeirLookupOptions.options());
        return options;
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        return createDynamicTableSink(context, StorageOptions.none());
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        return createDynamicTableSource(context, StorageOptions.none());
    }

    /** The sink of a table of a catalog whose storage options are {@code catalog}. */
    public DynamicTableSink createDynamicTableSink(Context context, StorageOptions catalog) {
        OpenedTable opened = openTable(context, catalog);
        return createSink(context, opened);
    }

    /** The source of a table of a catalog whose storage options are {@code catalog}. */
    public DynamicTableSource createDynamicTableSource(Context context, StorageOptions catalog) {
        OpenedTable opened = openTable(context, catalog);
        return createSource(context, opened);
    }

    /**
     * A table, the schema version the query declares (the current one, or an older one for time
     * travel or a DDL of it), and how its tasks reach its files.
     */
    record OpenedTable(Table table, TableMetadata version, FileIOLoader io) {}

    /**
     * The table's own options apply (a DDL must match them); {@code sink.parallelism} and {@code
     * write.mode} are per query. The write mode defaults to bulk insert in batch execution mode.
     */
    private static DynamicTableSink createSink(Context context, OpenedTable opened) {
        RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
        Map<String, String> options = context.getCatalogTable().getOptions();
        Integer parallelism =
                Configuration.fromMap(options)
                        .getOptional(FactoryUtil.SINK_PARALLELISM)
                        .orElse(null);
        WriteMode mode =
                WeirWriteOptions.writeMode(
                        options,
                        context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE),
                        context.getObjectIdentifier().asSummaryString());
        return new WeirTableSink(
                opened.table().location(),
                opened.io(),
                rowType,
                opened.version(),
                parallelism,
                mode);
    }

    /** Reads are bounded in batch mode and follow new commits in streaming mode. */
    private static DynamicTableSource createSource(Context context, OpenedTable opened) {
        boolean streaming =
                context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
                        == RuntimeExecutionMode.STREAMING;
        return new WeirTableSource(
                opened.table().location(),
                opened.table(),
                opened.version(),
                context.getCatalogTable().getOptions(),
                streaming,
                opened.io());
    }

    /**
     * Validates the options and returns the table at {@code path}, created from the DDL if there is
     * none, or checked against the DDL if there is one.
     *
     * @throws ValidationException for invalid options or a DDL that does not match the table
     */
    static OpenedTable openTable(Context context, StorageOptions catalog) {
        ResolvedCatalogTable ddl = context.getCatalogTable();
        String name = context.getObjectIdentifier().asSummaryString();
        // The core parsers first, so that a bad value is reported in the core's words, with the
        // table's name.
        TableOptions options;
        StorageOptions storage;
        try {
            options = WeirConnectorOptions.parseTableOptions(ddl.getOptions());
            storage =
                    WeirConnectorOptions.storageOptions(
                            context.getConfiguration(), catalog, ddl.getOptions());
            WeirConnectorOptions.checkConnectorValues(
                    ddl.getOptions(), new WeirDynamicTableFactory().optionalOptions());
        } catch (ValidationException e) {
            throw new ValidationException("Table " + name + ": " + e.getMessage(), e);
        }
        FactoryUtil.TableFactoryHelper helper =
                FactoryUtil.createTableFactoryHelper(new WeirDynamicTableFactory(), context);
        helper.validateExcept(StorageOptions.HADOOP_PREFIX, MergeOptions.FIELDS_PREFIX);
        String location =
                WeirConnectorOptions.location(
                        WeirConnectorOptions.PATH,
                        helper.getOptions().get(WeirConnectorOptions.PATH),
                        storage);
        FileIOLoader io = FileIOLoader.of(location, storage);
        Schema schema;
        try {
            schema = FlinkSchemas.toWeir(ddl.getResolvedSchema(), ddl.getPartitionKeys());
        } catch (ValidationException | io.weir.exceptions.ValidationException e) {
            throw new ValidationException("Table " + name + ": " + e.getMessage(), e);
        }
        Table table = loadIfExists(io.get(), location);
        if (table == null) {
            // If another job created it meanwhile, this loads that table, to be checked.
            table = createOrLoad(name, io.get(), location, schema, options.toMap());
        }
        TableMetadata version = StoredTableCheck.check(name, table, schema, options);
        return new OpenedTable(table, version, io);
    }

    private static Table loadIfExists(FileIO io, String location) {
        try {
            return Tables.load(io, location);
        } catch (NoSuchTableException e) {
            return null;
        }
    }

    /** Creates the table, or, if another job created it meanwhile, loads that one. */
    private static Table createOrLoad(
            String name, FileIO io, String location, Schema schema, Map<String, String> options) {
        try {
            return Tables.create(io, location, schema, options);
        } catch (TableAlreadyExistsException e) {
            return Tables.load(io, location);
        } catch (io.weir.exceptions.ValidationException e) {
            throw new ValidationException("Cannot create table " + name + ": " + e.getMessage(), e);
        }
    }
}
