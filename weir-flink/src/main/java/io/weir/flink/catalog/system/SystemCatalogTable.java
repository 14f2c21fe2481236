package io.weir.flink.catalog.system;

import io.weir.flink.FileIOLoader;

import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.types.utils.TypeConversions;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog entry of a system table, {@code t$commits}: the catalog's table factory recognises it
 * (Flink keeps it as the origin of the resolved table) and creates a {@link SystemTableSource}.
 */
public final class SystemCatalogTable implements CatalogTable {
    private final SystemTable kind;
    private final String name;
    private final String location;
    private final FileIOLoader io;

    /**
     * @param name the system table's SQL name, for messages
     * @param location the location of the table whose metadata it shows
     * @param io how the reading task reaches that table's files
     */
    public SystemCatalogTable(SystemTable kind, String name, String location, FileIOLoader io) {
        this.kind = kind;
        this.name = name;
        this.location = location;
        this.io = io;
    }

    public SystemTable kind() {
        return kind;
    }

    public String location() {
        return location;
    }

    /** The source that reads this system table's rows. */
    public SystemTableSource newSource() {
        return new SystemTableSource(kind, name, location, io);
    }

    @Override
    public Schema getUnresolvedSchema() {
        return Schema.newBuilder()
                .fromRowDataType(TypeConversions.fromLogicalToDataType(kind.rowType()))
                .build();
    }

    @Override
    public Map<String, String> getOptions() {
        return Map.of();
    }

    @Override
    public String getComment() {
        return "System table " + kind.suffix() + " of " + location;
    }

    @Override
    public boolean isPartitioned() {
        return false;
    }

    @Override
    public List<String> getPartitionKeys() {
        return List.of();
    }

    @Override
    public CatalogTable copy() {
        return this;
    }

    /** Options (hints) are ignored: a system table has none. */
    @Override
    public CatalogTable copy(Map<String, String> options) {
        return this;
    }

    @Override
    public Optional<String> getDescription() {
        return Optional.of(getComment());
    }

    @Override
    public Optional<String> getDetailedDescription() {
        return getDescription();
    }
}
