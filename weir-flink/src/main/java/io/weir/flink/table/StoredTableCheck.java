package io.weir.flink.table;

import io.weir.Schema;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.flink.FlinkTypes;
import io.weir.options.ConfigOption;
import io.weir.options.TableOptions;
import io.weir.types.DataType;
import io.weir.types.RowType;

import org.apache.flink.table.api.ValidationException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Compares what a DDL declares (columns, primary key, partition keys, table options) with the table
 * stored at its path, and fails listing every difference. A table option the DDL leaves unset
 * matches any stored value; column comments are not compared. A DDL that matches an older schema
 * version of the table (as the catalog declares a table read {@code FOR SYSTEM_TIME AS OF} a time
 * before a schema change) reads and writes that version (docs/format.md, "Schema evolution").
 */
final class StoredTableCheck {
    private StoredTableCheck() {}

    /**
     * @param tableName the SQL name of the table, for the message
     * @return the schema version the DDL declares: the current one, or else the newest older one it
     *     matches
     * @throws ValidationException if the DDL matches no version; the message lists its differences
     *     from the current one
     */
    static TableMetadata check(
            String tableName, Table stored, Schema declared, TableOptions options) {
        TableMetadata current = stored.metadata();
        List<String> differences = differences(current, declared, options);
        if (differences.isEmpty()) {
            return current;
        }
        for (int id = current.schemaId() - 1; id >= 0; id--) {
            TableMetadata older;
            try {
                older = stored.metadata(id);
            } catch (io.weir.exceptions.ValidationException e) {
                continue; // a version written by a schema change that did not commit
            }
            if (differences(older, declared, options).isEmpty()) {
                return older;
            }
        }
        throw new ValidationException(
                "Table "
                        + tableName
                        + " does not match the Weir table at "
                        + stored.location()
                        + ": "
                        + String.join("; ", differences));
    }

    private static List<String> differences(
            TableMetadata stored, Schema declared, TableOptions options) {
        List<String> differences = new ArrayList<>();
        compareColumns(stored.schema().rowType(), declared.rowType(), differences);
        compareKeys(
                "the primary key is",
                stored.schema().primaryKey(),
                declared.primaryKey(),
                differences);
        compareKeys(
                "the partition keys are",
                stored.schema().partitionKeys(),
                declared.partitionKeys(),
                differences);
        for (String key : options.toMap().keySet()) {
            compareOption(TableOptions.option(key), stored.options(), options, differences);
        }
        return differences;
    }

    private static void compareColumns(RowType stored, RowType declared, List<String> out) {
        int before = out.size();
        for (String name : stored.names()) {
            if (declared.indexOf(name) < 0) {
                out.add("column '" + name + "' is missing from the DDL");
            }
        }
        for (String name : declared.names()) {
            if (stored.indexOf(name) < 0) {
                out.add("column '" + name + "' does not exist in the table");
            }
        }
        if (out.size() == before && !stored.names().equals(declared.names())) {
            out.add(
                    "the columns are "
                            + list(stored.names())
                            + " in the table but "
                            + list(declared.names())
                            + " in the DDL");
        }
        for (int i = 0; i < stored.size(); i++) {
            int j = declared.indexOf(stored.field(i).name());
            if (j >= 0 && !stored.type(i).equals(declared.type(j))) {
                out.add(
                        "column '"
                                + stored.field(i).name()
                                + "' is "
                                + sql(stored.type(i))
                                + " in the table but "
                                + sql(declared.type(j))
                                + " in the DDL");
            }
        }
    }

    private static void compareKeys(
            String what, List<String> stored, List<String> declared, List<String> out) {
        if (!stored.equals(declared)) {
            out.add(
                    what
                            + " "
                            + list(stored)
                            + " in the table but "
                            + list(declared)
                            + " in the DDL");
        }
    }

    private static <T> void compareOption(
            ConfigOption<T> option, TableOptions stored, TableOptions declared, List<String> out) {
        T storedValue = stored.get(option);
        T declaredValue = declared.get(option);
        if (!Objects.equals(storedValue, declaredValue)) {
            out.add(
                    "option '"
                            + option.key()
                            + "' is "
                            + text(option, storedValue)
                            + " in the table but "
                            + text(option, declaredValue)
                            + " in the DDL");
        }
    }

    private static <T> String text(ConfigOption<T> option, T value) {
        return value == null ? "unset" : "'" + option.format(value) + "'";
    }

    private static String list(List<String> names) {
        return names.isEmpty() ? "none" : "(" + String.join(", ", names) + ")";
    }

    private static String sql(DataType type) {
        return FlinkTypes.toFlink(type).asSummaryString();
    }
}
