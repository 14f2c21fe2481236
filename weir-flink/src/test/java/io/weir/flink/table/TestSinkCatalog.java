package io.weir.flink.table;

import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.FileIOLoader;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

import java.util.Optional;
import java.util.Set;

/**
 * An in-memory catalog whose tables are written by {@link WeirTableSink}: a stand-in for the real
 * factory, without a service file. Takes the option {@code write.mode} (bulk insert by default in
 * batch mode, as the real factory).
 */
final class TestSinkCatalog extends GenericInMemoryCatalog {
    static final ConfigOption<String> PATH =
            ConfigOptions.key("path").stringType().noDefaultValue();

    TestSinkCatalog(String name) {
        super(name, "db");
    }

    /**
     * Tables without a 'connector' option are ours, not Flink-managed. (Overrides Flink 1.20's
     * method; Flink 2 has no managed tables, hence no {@code @Override}.)
     */
    public boolean supportsManagedTable() {
        return false;
    }

    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new SinkFactory());
    }

    private static final class SinkFactory implements DynamicTableSinkFactory {
        @Override
        public DynamicTableSink createDynamicTableSink(Context context) {
            FactoryUtil.TableFactoryHelper helper =
                    FactoryUtil.createTableFactoryHelper(this, context);
            helper.validate();
            String path = helper.getOptions().get(PATH);
            Table table = Tables.load(path);
            return new WeirTableSink(
                    path,
                    FileIOLoader.of(path),
                    (RowType) context.getPhysicalRowDataType().getLogicalType(),
                    table.metadata(),
                    null,
                    WeirWriteOptions.writeMode(
                            context.getCatalogTable().getOptions(),
                            context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE),
                            path));
        }

        @Override
        public String factoryIdentifier() {
            return "weir-test-sink";
        }

        @Override
        public Set<ConfigOption<?>> requiredOptions() {
            return Set.of(PATH);
        }

        @Override
        public Set<ConfigOption<?>> optionalOptions() {
            return WeirWriteOptions.options();
        }
    }
}
