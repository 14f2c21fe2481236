package io.weir.flink.catalog;

import io.weir.Schema;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.flink.FlinkSchemas;
import io.weir.flink.table.WeirConnectorOptions;
import io.weir.flink.table.WeirDynamicTableFactory;
import io.weir.flink.table.WeirReadOptions;
import io.weir.options.TableOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Converts between a Flink catalog table and what a Weir table stores: columns, primary key,
 * partition keys and table options. Query-time options ({@code sink.parallelism}, {@code scan.*})
 * are not stored; they are given per query with an OPTIONS hint.
 */
final class CatalogTables {
    private CatalogTables() {}

    /** What CREATE TABLE stores. */
    record Definition(Schema schema, Map<String, String> options) {}

    /**
     * The Weir schema and options of a table to be created at {@code location}.
     *
     * @throws ValidationException if the table has anything a Weir table cannot store
     */
    static Definition toWeir(ObjectPath path, String location, CatalogBaseTable table) {
        String name = path.getFullName();
        if (!(table instanceof ResolvedCatalogTable resolved)) {
            throw new ValidationException(
                    "Cannot create " + name + ": the Weir catalog stores tables only, not views");
        }
        ResolvedSchema schema = resolved.getResolvedSchema();
        for (Column column : schema.getColumns()) {
            check(
                    column.isPhysical(),
                    name,
                    "column '" + column.getName() + "' is not a physical column");
        }
        check(schema.getWatermarkSpecs().isEmpty(), name, "watermarks cannot be stored");
        check(
                resolved.getComment() == null || resolved.getComment().isEmpty(),
                name,
                "table comments cannot be stored");
        check(
                resolved.getDistribution().isEmpty(),
                name,
                "DISTRIBUTED BY is not supported; set the number of buckets with the table"
                        + " option 'bucket' (rows are bucketed by primary key)");
        Map<String, String> options = new TreeMap<>(resolved.getOptions());
        String connector = options.remove(FactoryUtil.CONNECTOR.key());
        check(
                connector == null || connector.equals(WeirDynamicTableFactory.IDENTIFIER),
                name,
                "the Weir catalog stores Weir tables only, not 'connector' = '"
                        + connector
                        + "' (create it as a TEMPORARY table or in another catalog)");
        String givenPath = options.remove(WeirConnectorOptions.PATH.key());
        check(
                givenPath == null || givenPath.equals(location),
                name,
                "option 'path' is set by the catalog (" + location + ")");
        for (String key : options.keySet()) {
            check(
                    !queryOptionKeys().contains(key),
                    name,
                    "option '"
                            + key
                            + "' is not stored with the table; give it per query with an OPTIONS"
                            + " hint");
        }
        try {
            TableOptions.of(options);
        } catch (IllegalArgumentException e) {
            throw new ValidationException("Cannot create table " + name + ": " + e.getMessage(), e);
        }
        try {
            return new Definition(
                    FlinkSchemas.toWeir(schema, resolved.getPartitionKeys()), options);
        } catch (ValidationException | io.weir.exceptions.ValidationException e) {
            throw new ValidationException("Cannot create table " + name + ": " + e.getMessage(), e);
        }
    }

    /** The catalog table of a Weir table: its schema, keys, options and location. */
    static CatalogTable toFlink(Table table) {
        return toFlink(table, table.metadata(), -1);
    }

    /**
     * The catalog table of one schema version of a Weir table; with {@code asOfMillis} >= 0, read
     * as of that time (its option {@code scan.timestamp}).
     */
    static CatalogTable toFlink(Table table, TableMetadata metadata, long asOfMillis) {
        Map<String, String> options = new TreeMap<>(metadata.options().toMap());
        options.put(WeirConnectorOptions.PATH.key(), table.location());
        if (asOfMillis >= 0) {
            options.put(WeirReadOptions.SCAN_TIMESTAMP.key(), String.valueOf(asOfMillis));
        }
        return CatalogTable.newBuilder()
                .schema(FlinkSchemas.toFlink(metadata.schema()))
                .partitionKeys(metadata.schema().partitionKeys())
                .options(options)
                .build();
    }

    /** The connector options that apply to a query, not to the table. */
    private static Set<String> queryOptionKeys() {
        return new WeirDynamicTableFactory()
                .optionalOptions().stream()
                        .map(ConfigOption::key)
                        .filter(k -> !TableOptions.ALL.containsKey(k))
                        .collect(Collectors.toSet());
    }

    private static void check(boolean condition, String table, String problem) {
        if (!condition) {
            throw new ValidationException("Cannot create table " + table + ": " + problem);
        }
    }
}
