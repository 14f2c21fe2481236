package io.weir;

import io.weir.options.TableOptions;
import io.weir.partition.TimePartitioning;

import java.util.Objects;

/**
 * One version of a table's schema and options, stored in {@code _weir/schemas/<schemaId>.json}.
 * Version 0 is written when the table is created; a commit names the version in force after it. The
 * schema and options are checked against each other (partition keys, time partitioning).
 *
 * @param schemaId the version: 0 for the table's first, then 1, 2, ...
 * @param schema the columns, primary key and partition keys
 * @param options the table's options (only those set explicitly are stored)
 * @param createdMillis when this version was created (epoch millis)
 */
public record TableMetadata(int schemaId, Schema schema, TableOptions options, long createdMillis) {

    public TableMetadata {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(options, "options");
        if (schemaId < 0) {
            throw new IllegalArgumentException("Invalid schema id " + schemaId + ": must be >= 0");
        }
        TimePartitioning.checkPartitionKeys(schema, options);
    }

    /** The first version of a new table's metadata, created now. */
    public static TableMetadata of(Schema schema, TableOptions options) {
        return new TableMetadata(0, schema, options, System.currentTimeMillis());
    }
}
