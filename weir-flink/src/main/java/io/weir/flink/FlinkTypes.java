package io.weir.flink;

import io.weir.Schema;
import io.weir.exceptions.ValidationException;
import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.Field;

import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

import java.util.ArrayList;
import java.util.List;

/** Maps Flink's logical types to Weir's and back; the two have the same row layout. */
public final class FlinkTypes {
    private FlinkTypes() {}

    /** The Weir type of a Flink type; unsupported types fail naming the column. */
    public static DataType toWeir(LogicalType type, String column) {
        try {
            return convert(type, column);
        } catch (IllegalArgumentException e) {
            // A parameter Flink allows and Weir does not, e.g. CHAR(0).
            throw new ValidationException(
                    "Column '"
                            + column
                            + "' has type "
                            + type.asSummaryString()
                            + ", which Weir cannot store: "
                            + e.getMessage(),
                    e);
        }
    }

    private static DataType convert(LogicalType type, String column) {
        DataType weir =
                switch (type.getTypeRoot()) {
                    case BOOLEAN -> DataTypes.BOOLEAN();
                    case TINYINT -> DataTypes.TINYINT();
                    case SMALLINT -> DataTypes.SMALLINT();
                    case INTEGER -> DataTypes.INT();
                    case BIGINT -> DataTypes.BIGINT();
                    case FLOAT -> DataTypes.FLOAT();
                    case DOUBLE -> DataTypes.DOUBLE();
                    case DECIMAL ->
                            DataTypes.DECIMAL(
                                    ((DecimalType) type).getPrecision(),
                                    ((DecimalType) type).getScale());
                    case CHAR -> DataTypes.CHAR(((CharType) type).getLength());
                    case VARCHAR -> DataTypes.VARCHAR(((VarCharType) type).getLength());
                    case BINARY -> DataTypes.BINARY(((BinaryType) type).getLength());
                    case VARBINARY -> DataTypes.VARBINARY(((VarBinaryType) type).getLength());
                    case DATE -> DataTypes.DATE();
                    case TIME_WITHOUT_TIME_ZONE -> DataTypes.TIME(((TimeType) type).getPrecision());
                    case TIMESTAMP_WITHOUT_TIME_ZONE ->
                            DataTypes.TIMESTAMP(((TimestampType) type).getPrecision());
                    case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                            DataTypes.TIMESTAMP_LTZ(
                                    ((LocalZonedTimestampType) type).getPrecision());
                    default ->
                            throw new ValidationException(
                                    "Column '"
                                            + column
                                            + "' has type "
                                            + type.asSummaryString()
                                            + ", which Weir does not support yet (supported: BOOLEAN,"
                                            + " TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL,"
                                            + " CHAR, VARCHAR, STRING, BINARY, VARBINARY, BYTES, DATE,"
                                            + " TIME, TIMESTAMP, TIMESTAMP_LTZ)");
                };
        return type.isNullable() ? weir : weir.notNull();
    }

    /** The Flink type of a Weir type. */
    public static LogicalType toFlink(DataType type) {
        boolean n = type.nullable();
        return switch (type.root()) {
            case BOOLEAN -> new BooleanType(n);
            case TINYINT -> new TinyIntType(n);
            case SMALLINT -> new SmallIntType(n);
            case INT -> new IntType(n);
            case BIGINT -> new BigIntType(n);
            case FLOAT -> new FloatType(n);
            case DOUBLE -> new DoubleType(n);
            case DECIMAL -> new DecimalType(n, type.precision(), type.scale());
            case CHAR -> new CharType(n, type.length());
            case VARCHAR -> new VarCharType(n, type.length());
            case BINARY -> new BinaryType(n, type.length());
            case VARBINARY -> new VarBinaryType(n, type.length());
            case DATE -> new DateType(n);
            case TIME -> new TimeType(n, type.precision());
            case TIMESTAMP -> new TimestampType(n, type.precision());
            case TIMESTAMP_LTZ -> new LocalZonedTimestampType(n, type.precision());
        };
    }

    /** The Weir row type of a Flink row type (field ids 0..n-1). */
    public static io.weir.types.RowType toWeir(RowType rowType) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            String name = rowType.getFieldNames().get(i);
            fields.add(new Field(i, name, toWeir(rowType.getTypeAt(i), name)));
        }
        return new io.weir.types.RowType(fields);
    }

    /** The Flink row type of a Weir row type. */
    public static RowType toFlink(io.weir.types.RowType rowType) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (Field f : rowType.fields()) {
            fields.add(new RowType.RowField(f.name(), toFlink(f.type()), f.description()));
        }
        return new RowType(false, fields);
    }

    /** The Flink row type of a table's rows. */
    public static RowType toFlink(Schema schema) {
        return toFlink(schema.rowType());
    }
}
