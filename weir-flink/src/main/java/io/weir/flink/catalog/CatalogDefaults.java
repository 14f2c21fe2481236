package io.weir.flink.catalog;

import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;

import java.util.List;

/**
 * What the Weir catalog does not do, in one place, so that {@link WeirCatalog} holds only what it
 * does: it stores no functions (they are resolved from Flink's other catalogs and modules), no
 * statistics, and partitions exist only through the data written to them.
 */
abstract class CatalogDefaults extends AbstractCatalog {

    CatalogDefaults(String name, String defaultDatabase) {
        super(name, defaultDatabase);
    }

    /** Fails with DatabaseNotExistException unless the database exists. */
    abstract void checkDatabase(String database) throws DatabaseNotExistException;

    // ---- functions: none are stored

    @Override
    public List<String> listFunctions(String database) throws DatabaseNotExistException {
        checkDatabase(database);
        return List.of();
    }

    @Override
    public CatalogFunction getFunction(ObjectPath path) throws FunctionNotExistException {
        throw new FunctionNotExistException(getName(), path);
    }

    @Override
    public boolean functionExists(ObjectPath path) {
        return false;
    }

    @Override
    public void createFunction(ObjectPath path, CatalogFunction function, boolean ignoreIfExists) {
        throw unsupported("CREATE FUNCTION", "store functions (create a TEMPORARY function)");
    }

    @Override
    public void alterFunction(ObjectPath path, CatalogFunction function, boolean ignoreIfNotExists)
            throws FunctionNotExistException {
        if (!ignoreIfNotExists) {
            throw new FunctionNotExistException(getName(), path);
        }
    }

    @Override
    public void dropFunction(ObjectPath path, boolean ignoreIfNotExists)
            throws FunctionNotExistException {
        if (!ignoreIfNotExists) {
            throw new FunctionNotExistException(getName(), path);
        }
    }

    // ---- partitions: created by writing rows, removed by overwriting them

    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(
            ObjectPath path, List<Expression> filters) {
        // On UnsupportedOperationException the planner lists all partitions and filters them.
        throw unsupported("Listing partitions by filter", "filter partitions");
    }

    @Override
    public void createPartition(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogPartition partition,
            boolean ignoreIfExists) {
        throw unsupported("ALTER TABLE ... ADD PARTITION", "create empty partitions");
    }

    @Override
    public void dropPartition(
            ObjectPath path, CatalogPartitionSpec spec, boolean ignoreIfNotExists) {
        throw unsupported(
                "ALTER TABLE ... DROP PARTITION",
                "drop partitions (INSERT OVERWRITE the partition instead)");
    }

    @Override
    public void alterPartition(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogPartition partition,
            boolean ignoreIfNotExists) {
        throw unsupported("ALTER TABLE ... PARTITION", "store partition properties");
    }

    // ---- statistics: none are stored (file statistics live in the commits, for pruning)

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath path) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath path) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public CatalogTableStatistics getPartitionStatistics(
            ObjectPath path, CatalogPartitionSpec spec) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getPartitionColumnStatistics(
            ObjectPath path, CatalogPartitionSpec spec) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public void alterTableStatistics(
            ObjectPath path, CatalogTableStatistics statistics, boolean ignoreIfNotExists) {
        throw unsupported("ANALYZE TABLE", "store statistics");
    }

    @Override
    public void alterTableColumnStatistics(
            ObjectPath path, CatalogColumnStatistics statistics, boolean ignoreIfNotExists) {
        throw unsupported("ANALYZE TABLE", "store statistics");
    }

    @Override
    public void alterPartitionStatistics(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogTableStatistics statistics,
            boolean ignoreIfNotExists) {
        throw unsupported("ANALYZE TABLE", "store statistics");
    }

    @Override
    public void alterPartitionColumnStatistics(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogColumnStatistics statistics,
            boolean ignoreIfNotExists) {
        throw unsupported("ANALYZE TABLE", "store statistics");
    }

    /** An error for an operation the catalog does not support. */
    UnsupportedOperationException unsupported(String operation, String cannot) {
        return new UnsupportedOperationException(
                operation
                        + " is not supported: the Weir catalog "
                        + getName()
                        + " does not "
                        + cannot);
    }
}
