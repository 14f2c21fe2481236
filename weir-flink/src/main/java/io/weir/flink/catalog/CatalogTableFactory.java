package io.weir.flink.catalog;

import io.weir.flink.catalog.system.SystemCatalogTable;
import io.weir.flink.table.WeirDynamicTableFactory;
import io.weir.options.StorageOptions;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;

import java.util.Set;

/**
 * The factory of the tables of a {@link WeirCatalog} (so they need no {@code connector} option):
 * system tables get their own source; every other table is the Weir connector's. Returned by {@link
 * WeirCatalog#getFactory()} only, never discovered (it shares the connector's identifier).
 */
final class CatalogTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {
    private final WeirDynamicTableFactory tables = new WeirDynamicTableFactory();
    private final StorageOptions storage;

    CatalogTableFactory(StorageOptions storage) {
        this.storage = storage;
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        if (context.getCatalogTable().getOrigin() instanceof SystemCatalogTable system) {
            return system.newSource(
                    context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
                            == RuntimeExecutionMode.STREAMING);
        }
        return tables.createDynamicTableSource(context, storage);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        if (context.getCatalogTable().getOrigin() instanceof SystemCatalogTable) {
            throw new ValidationException(
                    "Cannot write to "
                            + context.getObjectIdentifier().asSummaryString()
                            + ": system tables are read-only");
        }
        return tables.createDynamicTableSink(context, storage);
    }

    @Override
    public String factoryIdentifier() {
        return tables.factoryIdentifier();
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return tables.requiredOptions();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return tables.optionalOptions();
    }
}
