package io.weir.read;

import io.weir.ColumnStats;
import io.weir.DataFile;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.types.RowType;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link SchemaMapping}s of a table's files onto one schema version, the one a read uses: one
 * per schema version the files were written with, made when first needed.
 */
public final class SchemaMappings {
    private final Table table;
    private final TableMetadata readAs;
    private final Map<Integer, Optional<SchemaMapping>> bySchema = new HashMap<>();

    public SchemaMappings(Table table, TableMetadata readAs) {
        this.table = table;
        this.readAs = readAs;
    }

    /** The row type the file was written with. */
    public RowType written(DataFile f) {
        return f.schemaId() == readAs.schemaId()
                ? readAs.schema().rowType()
                : table.metadata(f.schemaId()).schema().rowType();
    }

    /**
     * The mapping of the file's rows onto the read schema; null if its rows need none (its schema
     * version is the read one, or has the same layout).
     */
    public synchronized SchemaMapping of(DataFile f) {
        if (f.schemaId() == readAs.schemaId()) {
            return null;
        }
        return bySchema.computeIfAbsent(
                        f.schemaId(),
                        id -> {
                            SchemaMapping m =
                                    SchemaMapping.between(
                                            written(f),
                                            readAs.schema().rowType(),
                                            f.path(),
                                            table.location());
                            return m.isIdentity() ? Optional.empty() : Optional.of(m);
                        })
                .orElse(null);
    }

    /** The file's column statistics that are sound for the read schema, by its field ids. */
    public Map<Integer, ColumnStats> statistics(DataFile f) {
        SchemaMapping m = of(f);
        return m == null ? f.columnStats() : m.statistics(f.columnStats());
    }
}
