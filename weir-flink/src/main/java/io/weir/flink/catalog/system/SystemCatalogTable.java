package io.weir.flink.catalog.system;

import io.weir.flink.FileIOLoader;

import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.utils.TypeConversions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog entry of a system table, {@code t$commits}: the catalog's table factory recognises it
 * (Flink keeps it as the origin of the resolved table) and creates its source. Options come from an
 * {@code OPTIONS} hint only: metadata tables take those of {@link SystemTableOptions}; {@code $ro}
 * and {@code $audit_log} take the table's read options.
 */
public final class SystemCatalogTable implements CatalogTable {
    /** The column {@code $audit_log} adds before the table's: +I, -U, +U or -D. */
    public static final String ROW_KIND = "rowkind";

    private final SystemTable kind;
    private final String name;
    private final String location;
    private final FileIOLoader io;
    private final RowType tableRowType;
    private final Map<String, String> options;

    /**
     * @param name the system table's SQL name, for messages
     * @param location the location of the table whose metadata it shows
     * @param io how the reading task reaches that table's files
     * @param tableRowType the columns of that table
     */
    public SystemCatalogTable(
            SystemTable kind, String name, String location, FileIOLoader io, RowType tableRowType) {
        this(kind, name, location, io, tableRowType, Map.of());
    }

    private SystemCatalogTable(
            SystemTable kind,
            String name,
            String location,
            FileIOLoader io,
            RowType tableRowType,
            Map<String, String> options) {
        this.kind = kind;
        this.name = name;
        this.location = location;
        this.io = io;
        this.tableRowType = tableRowType;
        this.options = Map.copyOf(options);
    }

    public SystemTable kind() {
        return kind;
    }

    public String location() {
        return location;
    }

    /**
     * The source that reads this system table's rows.
     *
     * @param streaming whether the job runs in streaming mode ({@code $audit_log} then follows new
     *     commits; every other system table is bounded)
     */
    public DynamicTableSource newSource(boolean streaming) {
        if (kind.isMetadata()) {
            return new SystemTableSource(kind, name, location, io, options);
        }
        return new SystemDataSource(kind, name, location, io, rowType(), options, streaming);
    }

    /** The columns of this system table. */
    public RowType rowType() {
        if (kind.isMetadata()) {
            return kind.rowType();
        } else if (kind == SystemTable.RO) {
            return tableRowType;
        }
        List<RowType.RowField> fields = new ArrayList<>();
        fields.add(
                new RowType.RowField(
                        ROW_KIND,
                        new VarCharType(false, VarCharType.MAX_LENGTH),
                        "The change: +I (insert), -U and +U (update before and after), -D"
                                + " (delete)."));
        fields.addAll(tableRowType.getFields());
        return new RowType(false, fields);
    }

    @Override
    public Schema getUnresolvedSchema() {
        return Schema.newBuilder()
                .fromRowDataType(TypeConversions.fromLogicalToDataType(rowType()))
                .build();
    }

    @Override
    public Map<String, String> getOptions() {
        return options;
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

    /** The table with the options of a query's {@code OPTIONS} hint, checked. */
    @Override
    public CatalogTable copy(Map<String, String> newOptions) {
        Map<String, String> checked =
                kind.isMetadata()
                        ? SystemTableOptions.check(kind, name, newOptions)
                        : SystemDataSource.check(kind, name, location, io, newOptions);
        return new SystemCatalogTable(kind, name, location, io, tableRowType, checked);
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
