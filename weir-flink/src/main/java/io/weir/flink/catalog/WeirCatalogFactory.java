package io.weir.flink.catalog;

import io.weir.flink.table.WeirConnectorOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

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
        return Set.of(WeirCatalogOptions.DEFAULT_DATABASE);
    }

    @Override
    public Catalog createCatalog(Context context) {
        FactoryUtil.CatalogFactoryHelper helper =
                FactoryUtil.createCatalogFactoryHelper(this, context);
        helper.validate();
        ReadableConfig options = helper.getOptions();
        String warehouse =
                WeirConnectorOptions.localLocation(
                        WeirCatalogOptions.WAREHOUSE, options.get(WeirCatalogOptions.WAREHOUSE));
        return new WeirCatalog(
                context.getName(), options.get(WeirCatalogOptions.DEFAULT_DATABASE), warehouse);
    }
}
