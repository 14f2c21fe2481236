package io.weir.flink.catalog;

import io.weir.flink.table.WeirConnectorOptions;
import io.weir.options.StorageOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Creates a {@link WeirCatalog}: {@code CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' =
 * ...)}.
 */
public class WeirCatalogFactory implements CatalogFactory {
    public static final String IDENTIFIER = "weir";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(WeirCatalogOptions.WAREHOUSE);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>();
        options.add(WeirCatalogOptions.DEFAULT_DATABASE);
        options.addAll(WeirConnectorOptions.STORAGE_OPTIONS.values());
        return options;
    }

    @Override
    public Catalog createCatalog(Context context) {
        FactoryUtil.CatalogFactoryHelper helper =
                FactoryUtil.createCatalogFactoryHelper(this, context);
        helper.validateExcept(StorageOptions.HADOOP_PREFIX);
        ReadableConfig options = helper.getOptions();
        StorageOptions storage =
                WeirConnectorOptions.storageOptions(
                        context.getConfiguration(), StorageOptions.none(), context.getOptions());
        String warehouse =
                WeirConnectorOptions.location(
                        WeirCatalogOptions.WAREHOUSE,
                        options.get(WeirCatalogOptions.WAREHOUSE),
                        storage);
        return new WeirCatalog(
                context.getName(),
                options.get(WeirCatalogOptions.DEFAULT_DATABASE),
                warehouse,
                storage);
    }
}
