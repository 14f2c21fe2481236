package io.weir.flink.table;

import io.weir.Tables;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.Map;
import java.util.Set;

/** A minimal factory ('weir-source-test') that builds {@link WeirTableSource}s in SQL tests. */
public final class TestSourceFactory implements DynamicTableSourceFactory {
    static final ConfigOption<String> PATH =
            ConfigOptions.key("path").stringType().noDefaultValue();

    @Override
    public String factoryIdentifier() {
        return "weir-source-test";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(PATH);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return WeirReadOptions.options();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.createTableFactoryHelper(this, context).validate();
        Map<String, String> options = context.getCatalogTable().getOptions();
        String path = options.get(PATH.key());
        boolean streaming =
                context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
                        == RuntimeExecutionMode.STREAMING;
        return new WeirTableSource(path, Tables.load(path), options, streaming);
    }
}
