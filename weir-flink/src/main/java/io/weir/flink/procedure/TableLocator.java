package io.weir.flink.procedure;

import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.FileIOLoader;

/**
 * Finds the table a procedure names: {@code 'db.t'}, or {@code 't'} in the catalog's default
 * database. The catalog implements it over its warehouse.
 */
@FunctionalInterface
public interface TableLocator {
    /**
     * The location of the named table and how to reach it.
     *
     * @throws org.apache.flink.table.api.ValidationException naming the table if it does not exist
     */
    Located locate(String table);

    /** A table's location and the file system it is on. */
    record Located(String location, FileIOLoader io) {
        public Table load() {
            return Tables.load(io.get(), location);
        }
    }
}
