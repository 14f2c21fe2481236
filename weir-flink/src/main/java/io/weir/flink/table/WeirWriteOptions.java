package io.weir.flink.table;

import io.weir.flink.sink.WriteMode;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The write options of a Weir table in Flink SQL (in {@code WITH (...)} of a {@code weir} connector
 * table, or in an {@code OPTIONS} table hint), as typed Flink options. They apply to one statement
 * and are not stored with the table. See {@code docs/bulk-insert.md}.
 */
public final class WeirWriteOptions {
    private WeirWriteOptions() {}

    public static final ConfigOption<WriteMode> WRITE_MODE =
            ConfigOptions.key("write.mode")
                    .enumType(WriteMode.class)
                    .noDefaultValue()
                    .withDescription(
                            "How an INSERT writes: 'upsert' or 'bulk-insert' (batch execution mode"
                                    + " only). Default: 'bulk-insert' in batch execution mode,"
                                    + " 'upsert' in streaming. Both give the same table contents;"
                                    + " see docs/bulk-insert.md.");

    /** Every write option, for a factory's {@code optionalOptions()}. */
    public static Set<ConfigOption<?>> options() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>();
        options.add(WRITE_MODE);
        return options;
    }

    /**
     * The write mode of a statement: the option if set, else bulk insert in batch mode and upsert
     * in streaming mode.
     *
     * @throws ValidationException for an invalid value, or bulk insert in streaming mode
     */
    public static WriteMode writeMode(
            Map<String, String> options, RuntimeExecutionMode executionMode, String table) {
        WriteMode mode;
        try {
            mode = Configuration.fromMap(options).get(WRITE_MODE);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    "Invalid value '"
                            + options.get(WRITE_MODE.key())
                            + "' for option '"
                            + WRITE_MODE.key()
                            + "' of table "
                            + table
                            + ": expected 'upsert' or 'bulk-insert'",
                    e);
        }
        boolean batch = executionMode == RuntimeExecutionMode.BATCH;
        if (mode == null) {
            return batch ? WriteMode.BULK_INSERT : WriteMode.UPSERT;
        }
        if (mode == WriteMode.BULK_INSERT && !batch) {
            throw new ValidationException(
                    "Cannot write table "
                            + table
                            + " with option '"
                            + WRITE_MODE.key()
                            + "' = 'bulk-insert' in "
                            + executionMode.name().toLowerCase()
                            + " execution mode: bulk insert sorts the whole input, so it needs"
                            + " 'execution.runtime-mode' = 'batch'; use 'upsert' for streaming");
        }
        return mode;
    }
}
