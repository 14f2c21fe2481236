package io.weir.flink.procedure;

/**
 * Finds the table a procedure names: {@code 'db.t'}, or {@code 't'} in the catalog's default
 * database. The catalog implements it over its warehouse.
 */
@FunctionalInterface
public interface TableLocator {
    /**
     * The location of the named table.
     *
     * @throws org.apache.flink.table.api.ValidationException naming the table if it does not exist
     */
    String locate(String table);
}
