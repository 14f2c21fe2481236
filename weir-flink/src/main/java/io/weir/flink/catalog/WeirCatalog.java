package io.weir.flink.catalog;

import io.weir.DataFile;
import io.weir.Partition;
import io.weir.Table;
import io.weir.Tables;
import io.weir.exceptions.TableAlreadyExistsException;
import io.weir.flink.FlinkTypes;
import io.weir.flink.catalog.system.SystemCatalogTable;
import io.weir.flink.catalog.system.SystemTable;
import io.weir.flink.procedure.TableLocator;
import io.weir.flink.procedure.WeirProcedures;
import io.weir.options.StorageOptions;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionImpl;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.ProcedureNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.procedures.Procedure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A catalog of Weir tables in a warehouse directory (see {@link Warehouse} for the layout). The
 * tables themselves are the only state: a table's schema, keys and options are read from its
 * metadata, so any number of catalogs, jobs and the {@code weir} command can share a warehouse.
 * Every table {@code t} has read-only system tables such as {@code t$commits} and {@code t$files}
 * ({@link SystemTable}), and the table services are procedures ({@link WeirProcedures}).
 */
public class WeirCatalog extends CatalogDefaults {
    private final Warehouse warehouse;

    /** A catalog of a warehouse on local disk, or on a file system reached with default options. */
    public WeirCatalog(String name, String defaultDatabase, String warehouse) {
        this(name, defaultDatabase, warehouse, StorageOptions.none());
    }

    /**
     * A catalog of a warehouse on the file system of its location's scheme.
     *
     * @param storage the storage options ({@code s3.*}, {@code hadoop.*}) of the warehouse and
     *     every table in it; never stored with a table, never shown by it
     */
    public WeirCatalog(
            String name, String defaultDatabase, String warehouse, StorageOptions storage) {
        super(name, defaultDatabase);
        this.warehouse = new Warehouse(warehouse, storage);
    }

    @Override
    public void open() {
        if (!warehouse.isDatabase(getDefaultDatabase())) {
            warehouse.createDatabase(getDefaultDatabase());
        }
    }

    @Override
    public void close() {}

    /** Tables of this catalog need no {@code connector} option. */
    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new CatalogTableFactory(warehouse.storage()));
    }

    // ---- databases: directories

    @Override
    public List<String> listDatabases() {
        return warehouse.databases();
    }

    @Override
    public CatalogDatabase getDatabase(String database) throws DatabaseNotExistException {
        checkDatabase(database);
        return new CatalogDatabaseImpl(Map.of(), null);
    }

    @Override
    public boolean databaseExists(String database) {
        return warehouse.isDatabase(database);
    }

    @Override
    public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException {
        if (!database.getProperties().isEmpty()
                || (database.getComment() != null && !database.getComment().isEmpty())) {
            throw unsupported("A database comment or property", "store them");
        }
        if (databaseExists(name)) {
            if (ignoreIfExists) {
                return;
            }
            throw new DatabaseAlreadyExistException(getName(), name);
        }
        warehouse.createDatabase(name);
    }

    @Override
    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException {
        if (!databaseExists(name)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new DatabaseNotExistException(getName(), name);
        }
        if (!cascade && !warehouse.tables(name).isEmpty()) {
            throw new DatabaseNotEmptyException(getName(), name);
        }
        warehouse.deleteRecursively(warehouse.database(name));
    }

    @Override
    public void alterDatabase(String name, CatalogDatabase database, boolean ignoreIfNotExists) {
        throw unsupported("ALTER DATABASE", "store database properties");
    }

    @Override
    void checkDatabase(String database) throws DatabaseNotExistException {
        if (!databaseExists(database)) {
            throw new DatabaseNotExistException(getName(), database);
        }
    }

    // ---- tables: directories holding Weir metadata

    @Override
    public List<String> listTables(String database) throws DatabaseNotExistException {
        checkDatabase(database);
        return warehouse.tables(database);
    }

    @Override
    public List<String> listViews(String database) throws DatabaseNotExistException {
        checkDatabase(database);
        return List.of();
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath path) throws TableNotExistException {
        SystemTableName system = SystemTableName.of(path);
        if (system != null) {
            String location = existingTable(system.table());
            SystemTable kind =
                    SystemTable.of(system.suffix())
                            .orElseThrow(
                                    () ->
                                            new ValidationException(
                                                    "Table "
                                                            + system.table().getFullName()
                                                            + " has no system table '"
                                                            + system.suffix()
                                                            + "'; its system tables are "
                                                            + SystemTable.suffixes()));
            return new SystemCatalogTable(
                    kind,
                    path.getFullName(),
                    location,
                    warehouse.io(location),
                    FlinkTypes.toFlink(load(system.table()).schema()));
        }
        return CatalogTables.toFlink(load(path));
    }

    @Override
    public boolean tableExists(ObjectPath path) {
        SystemTableName system = SystemTableName.of(path);
        if (system != null) {
            return SystemTable.of(system.suffix()).isPresent() && isTable(system.table());
        }
        return isTable(path);
    }

    @Override
    public void createTable(ObjectPath path, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException {
        checkDatabase(path.getDatabaseName());
        if (path.getObjectName().indexOf(SystemTable.SEPARATOR) >= 0) {
            throw new ValidationException(
                    "Cannot create table "
                            + path.getFullName()
                            + ": '"
                            + SystemTable.SEPARATOR
                            + "' is reserved for system tables such as t$commits");
        }
        String location = warehouse.table(path);
        CatalogTables.Definition definition = CatalogTables.toWeir(path, location, table);
        try {
            Tables.create(
                    warehouse.io(location).get(),
                    location,
                    definition.schema(),
                    definition.options());
        } catch (TableAlreadyExistsException e) {
            if (!ignoreIfExists) {
                throw new TableAlreadyExistException(getName(), path, e);
            }
        } catch (io.weir.exceptions.ValidationException e) {
            // The core names the table by its location; here it is named as the user wrote it.
            String core = "Cannot create table " + location + ": ";
            String problem =
                    e.getMessage().startsWith(core)
                            ? e.getMessage().substring(core.length())
                            : e.getMessage();
            throw new ValidationException(
                    "Cannot create table " + path.getFullName() + ": " + problem, e);
        }
    }

    @Override
    public void dropTable(ObjectPath path, boolean ignoreIfNotExists)
            throws TableNotExistException {
        if (SystemTableName.of(path) != null) {
            throw new ValidationException(
                    "Cannot drop " + path.getFullName() + ": system tables cannot be dropped");
        }
        if (!isTable(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(getName(), path);
        }
        warehouse.dropTable(warehouse.table(path));
    }

    /** Renames the table's directory: table metadata holds paths relative to it. */
    @Override
    public void renameTable(ObjectPath path, String newName, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException {
        if (!isTable(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(getName(), path);
        }
        ObjectPath target = new ObjectPath(path.getDatabaseName(), newName);
        if (newName.indexOf(SystemTable.SEPARATOR) >= 0) {
            throw new ValidationException(
                    "Cannot rename "
                            + path.getFullName()
                            + " to "
                            + newName
                            + ": '"
                            + SystemTable.SEPARATOR
                            + "' is reserved for system tables");
        }
        if (isTable(target)) {
            throw new TableAlreadyExistException(getName(), target);
        }
        warehouse.move(warehouse.table(path), warehouse.table(target));
    }

    /** Flink passes the changes of every ALTER TABLE statement to the other variant. */
    @Override
    public void alterTable(ObjectPath path, CatalogBaseTable table, boolean ignoreIfNotExists) {
        throw unsupported(
                "ALTER TABLE " + path.getFullName() + " without a list of changes",
                "replace a table's definition as a whole (use ALTER TABLE statements)");
    }

    /**
     * Commits the statement's changes as one new schema version of the table (docs/flink-sql.md,
     * "Changing a table"): old files are not rewritten, and jobs running on the previous version
     * keep writing and reading it.
     */
    @Override
    public void alterTable(
            ObjectPath path,
            CatalogBaseTable newTable,
            List<TableChange> changes,
            boolean ignoreIfNotExists)
            throws TableNotExistException {
        if (SystemTableName.of(path) != null) {
            throw new ValidationException(
                    "Cannot alter " + path.getFullName() + ": system tables cannot be altered");
        }
        if (!isTable(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(getName(), path);
        }
        Table table = load(path);
        try {
            TableChanges.apply(path.getFullName(), table.updateSchema(), changes).commit();
        } catch (io.weir.exceptions.ValidationException e) {
            // The core names the table by its location; here it is named as the user wrote it.
            // The message is complete: the core's exception would only repeat it as the cause.
            throw new ValidationException(
                    e.getMessage().replace(table.location(), path.getFullName()));
        }
    }

    /**
     * The table as it was at {@code timestamp} ({@code FOR SYSTEM_TIME AS OF}): the columns and
     * options of that snapshot's schema version, read at that time.
     */
    @Override
    public CatalogBaseTable getTable(ObjectPath path, long timestamp)
            throws TableNotExistException {
        if (SystemTableName.of(path) != null) {
            throw new ValidationException(
                    "Cannot read "
                            + path.getFullName()
                            + " as of a time: system tables have no"
                            + " history");
        }
        Table table = load(path);
        io.weir.Snapshot snapshot;
        try {
            snapshot = table.snapshotAsOf(timestamp);
        } catch (RuntimeException e) {
            throw new ValidationException(
                    "Cannot read table "
                            + path.getFullName()
                            + " as of "
                            + java.time.Instant.ofEpochMilli(timestamp)
                            + ": "
                            + e.getMessage(),
                    e);
        }
        return CatalogTables.toFlink(table, table.metadata(snapshot.schemaId()), timestamp);
    }

    // ---- partitions: those with live files

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path)
            throws TableNotExistException, TableNotPartitionedException {
        Table table = load(path);
        List<String> keys = table.schema().partitionKeys();
        if (keys.isEmpty()) {
            throw new TableNotPartitionedException(getName(), path);
        }
        TreeSet<Partition> partitions = new TreeSet<>();
        for (DataFile file : table.currentSnapshot().files()) {
            partitions.add(file.partition());
        }
        return partitions.stream().map(p -> spec(keys, p)).toList();
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path, CatalogPartitionSpec spec)
            throws TableNotExistException, TableNotPartitionedException {
        Map<String, String> wanted = spec.getPartitionSpec();
        return listPartitions(path).stream()
                .filter(p -> p.getPartitionSpec().entrySet().containsAll(wanted.entrySet()))
                .toList();
    }

    @Override
    public CatalogPartition getPartition(ObjectPath path, CatalogPartitionSpec spec)
            throws PartitionNotExistException {
        if (!partitionExists(path, spec)) {
            throw new PartitionNotExistException(getName(), path, spec);
        }
        return new CatalogPartitionImpl(Map.of(), null);
    }

    @Override
    public boolean partitionExists(ObjectPath path, CatalogPartitionSpec spec) {
        try {
            return listPartitions(path).contains(spec);
        } catch (TableNotExistException | TableNotPartitionedException e) {
            return false;
        }
    }

    /** A partition as Flink names it; a null value has Hive's default partition name. */
    private static CatalogPartitionSpec spec(List<String> keys, Partition partition) {
        Map<String, String> spec = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            String value = partition.values().get(i);
            spec.put(keys.get(i), value == null ? Partition.NULL_TEXT : value);
        }
        return new CatalogPartitionSpec(spec);
    }

    // ---- procedures: the table services, found in every database (CALL c.sys.compact('db.t'))

    @Override
    public List<String> listProcedures(String database) {
        return WeirProcedures.names();
    }

    @Override
    public Procedure getProcedure(ObjectPath path) throws ProcedureNotExistException {
        return WeirProcedures.get(path.getObjectName(), this::locate)
                .orElseThrow(() -> new ProcedureNotExistException(getName(), path));
    }

    /** The location of a procedure's table argument: {@code 'db.t'}, or {@code 't'}. */
    private TableLocator.Located locate(String table) {
        if (table == null || table.isBlank()) {
            throw new ValidationException("A Weir procedure needs a table: 'db.t' or 't'");
        }
        int dot = table.indexOf('.');
        ObjectPath path =
                dot < 0
                        ? new ObjectPath(getDefaultDatabase(), table)
                        : new ObjectPath(table.substring(0, dot), table.substring(dot + 1));
        if (!isTable(path)) {
            throw new ValidationException(
                    "Table " + path.getFullName() + " does not exist in catalog " + getName());
        }
        String location = warehouse.table(path);
        return new TableLocator.Located(location, warehouse.io(location));
    }

    // ---- helpers

    private boolean isTable(ObjectPath path) {
        return warehouse.isTable(warehouse.table(path));
    }

    private String existingTable(ObjectPath path) throws TableNotExistException {
        if (!isTable(path)) {
            throw new TableNotExistException(getName(), path);
        }
        return warehouse.table(path);
    }

    private Table load(ObjectPath path) throws TableNotExistException {
        String location = existingTable(path);
        return Tables.load(warehouse.io(location).get(), location);
    }

    /** A table name {@code t$commits} split into the table and the system table's suffix. */
    private record SystemTableName(ObjectPath table, String suffix) {
        static SystemTableName of(ObjectPath path) {
            String name = path.getObjectName();
            int at = name.lastIndexOf(SystemTable.SEPARATOR);
            if (at <= 0) {
                return null;
            }
            return new SystemTableName(
                    new ObjectPath(path.getDatabaseName(), name.substring(0, at)),
                    name.substring(at + 1));
        }
    }
}
