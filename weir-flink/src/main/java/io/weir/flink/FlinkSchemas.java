package io.weir.flink;

import io.weir.Schema;
import io.weir.types.Field;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.utils.TypeConversions;

import java.util.ArrayList;
import java.util.List;

/** Maps a Flink table schema (columns, primary key, partition keys) to a Weir schema and back. */
public final class FlinkSchemas {
    private FlinkSchemas() {}

    /**
     * The Weir schema of a table's physical columns. Computed and metadata columns and watermarks
     * are not part of it (Flink evaluates them over the physical row).
     *
     * @throws ValidationException for an unsupported column type or invalid keys
     */
    public static Schema toWeir(ResolvedSchema schema, List<String> partitionKeys) {
        List<Field> fields = new ArrayList<>();
        for (Column column : schema.getColumns()) {
            if (column.isPhysical()) {
                String name = column.getName();
                LogicalType type = column.getDataType().getLogicalType();
                String comment = column.getComment().orElse(null);
                fields.add(toField(fields.size(), name, type, comment));
            }
        }
        List<String> primaryKey =
                schema.getPrimaryKey().map(UniqueConstraint::getColumns).orElse(List.of());
        try {
            return new Schema(new io.weir.types.RowType(fields), primaryKey, partitionKeys);
        } catch (io.weir.exceptions.ValidationException e) {
            throw new ValidationException(e.getMessage(), e);
        }
    }

    /** The Flink schema of a Weir schema: its columns (with comments) and primary key. */
    public static org.apache.flink.table.api.Schema toFlink(Schema schema) {
        org.apache.flink.table.api.Schema.Builder builder =
                org.apache.flink.table.api.Schema.newBuilder();
        for (Field f : schema.fields()) {
            builder.column(
                    f.name(), TypeConversions.fromLogicalToDataType(FlinkTypes.toFlink(f.type())));
            if (f.description() != null) {
                builder.withComment(f.description());
            }
        }
        if (schema.hasPrimaryKey()) {
            builder.primaryKey(schema.primaryKey());
        }
        return builder.build();
    }

    private static Field toField(int id, String name, LogicalType type, String comment) {
        try {
            return new Field(id, name, FlinkTypes.toWeir(type, name), comment);
        } catch (io.weir.exceptions.ValidationException e) {
            throw new ValidationException(e.getMessage(), e);
        }
    }
}
