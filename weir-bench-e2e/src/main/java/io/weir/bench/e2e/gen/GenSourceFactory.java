package io.weir.bench.e2e.gen;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.util.List;
import java.util.Set;

/**
 * The benchmark's source, {@code 'connector' = 'weir-bench-gen'}: the rows of a workload, generated
 * deterministically (so that tables can be checked), on Flink 1.17 and 1.20 alike.
 *
 * <pre>
 * CREATE TABLE src (item_id BIGINT, ...) WITH (
 *   'connector' = 'weir-bench-gen', 'workload' = 'schema1', 'rows' = '20000000')
 * </pre>
 */
public final class GenSourceFactory implements DynamicTableSourceFactory {
    public static final String IDENTIFIER = "weir-bench-gen";

    public static final ConfigOption<String> WORKLOAD =
            ConfigOptions.key("workload")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("schema1 ... schema4 of BENCHMARK.md");

    public static final ConfigOption<Long> ROWS =
            ConfigOptions.key("rows")
                    .longType()
                    .noDefaultValue()
                    .withDescription("Rows to generate; keys are uniform in [0, keys).");

    public static final ConfigOption<Long> KEYS =
            ConfigOptions.key("keys")
                    .longType()
                    .noDefaultValue()
                    .withDescription("Keys are uniform in [0, keys); default rows / 5.");

    public static final ConfigOption<Boolean> UNIQUE_KEYS =
            ConfigOptions.key("unique-keys")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Every row a key of its own, [0, rows) in a scattered order (bulk"
                                    + " inserts).");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(WORKLOAD, ROWS);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(UNIQUE_KEYS, KEYS);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        ReadableConfig options = helper.getOptions();
        Workload workload;
        try {
            workload = Workload.parse(options.get(WORKLOAD));
        } catch (IllegalArgumentException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        long rows = options.get(ROWS);
        if (rows < 1) {
            throw new ValidationException("'rows' must be at least 1, got " + rows);
        }
        long keys = options.getOptional(KEYS).orElse(Workload.keys(rows));
        if (keys < 1) {
            throw new ValidationException("'keys' must be at least 1, got " + keys);
        }
        if (options.get(UNIQUE_KEYS) && options.getOptional(KEYS).isPresent()) {
            throw new ValidationException(
                    "'keys' does not apply with 'unique-keys': every row is a key of its own");
        }
        RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
        checkColumns(workload, rowType);
        return new GenTableSource(workload, rows, keys, options.get(UNIQUE_KEYS), rowType);
    }

    /** The declared columns must be the workload's: the generator fills them by position. */
    private static void checkColumns(Workload workload, RowType rowType) {
        List<String> expected = workload.columns();
        List<RowType.RowField> fields = rowType.getFields();
        boolean same = fields.size() == expected.size();
        for (int i = 0; same && i < fields.size(); i++) {
            LogicalType type = fields.get(i).getType().copy(true);
            String column = fields.get(i).getName() + " " + type.asSummaryString();
            same = column.equals(expected.get(i));
        }
        if (!same) {
            throw new ValidationException(
                    "The columns of a '"
                            + IDENTIFIER
                            + "' table of "
                            + workload.id()
                            + " must be ("
                            + workload.columnsDdl()
                            + "), got "
                            + rowType.asSummaryString());
        }
    }
}
