package io.weir.base;

import io.weir.data.Timestamp;
import io.weir.types.DataType;
import io.weir.types.Field;
import io.weir.types.RowType;

import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The mapping of Weir types to standard Parquet physical and logical types (docs/format.md §5), so
 * that other engines read base files without knowing Weir. Every column carries its Weir field id
 * as the Parquet field id.
 */
final class ParquetTypes {
    /** The name of the Parquet message (root group) of a base file. */
    static final String MESSAGE_NAME = "weir";

    static final int MAX_INT32_DECIMAL_PRECISION = 9;
    static final int MAX_INT64_DECIMAL_PRECISION = 18;

    private ParquetTypes() {}

    /** The Parquet schema of a base file holding rows of {@code rowType}. */
    static MessageType messageType(RowType rowType) {
        List<Type> columns = new ArrayList<>(rowType.size());
        for (Field field : rowType.fields()) {
            columns.add(column(field));
        }
        return new MessageType(MESSAGE_NAME, columns);
    }

    /** The Parquet column of one field: name, repetition, physical and logical type, field id. */
    static PrimitiveType column(Field field) {
        DataType type = field.type();
        Type.Repetition repetition =
                type.nullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
        Types.PrimitiveBuilder<PrimitiveType> builder =
                Types.primitive(physicalType(type), repetition);
        LogicalTypeAnnotation logical = logicalType(type);
        if (logical != null) {
            builder = builder.as(logical);
        }
        if (physicalType(type) == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
            builder = builder.length(decimalByteWidth(type.precision()));
        }
        return builder.id(field.id()).named(field.name());
    }

    static PrimitiveTypeName physicalType(DataType type) {
        return switch (type.root()) {
            case BOOLEAN -> PrimitiveTypeName.BOOLEAN;
            case TINYINT, SMALLINT, INT, DATE, TIME -> PrimitiveTypeName.INT32;
            case BIGINT, TIMESTAMP, TIMESTAMP_LTZ -> PrimitiveTypeName.INT64;
            case FLOAT -> PrimitiveTypeName.FLOAT;
            case DOUBLE -> PrimitiveTypeName.DOUBLE;
            case DECIMAL -> {
                if (type.precision() <= MAX_INT32_DECIMAL_PRECISION) {
                    yield PrimitiveTypeName.INT32;
                } else if (type.precision() <= MAX_INT64_DECIMAL_PRECISION) {
                    yield PrimitiveTypeName.INT64;
                }
                yield PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> PrimitiveTypeName.BINARY;
        };
    }

    /** The logical type annotation, or null for types Parquet represents by the physical type. */
    static LogicalTypeAnnotation logicalType(DataType type) {
        return switch (type.root()) {
            case BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, BINARY, VARBINARY -> null;
            case TINYINT -> LogicalTypeAnnotation.intType(8, true);
            case SMALLINT -> LogicalTypeAnnotation.intType(16, true);
            case DECIMAL -> LogicalTypeAnnotation.decimalType(type.scale(), type.precision());
            case CHAR, VARCHAR -> LogicalTypeAnnotation.stringType();
            case DATE -> LogicalTypeAnnotation.dateType();
            case TIME -> LogicalTypeAnnotation.timeType(false, TimeUnit.MILLIS);
            case TIMESTAMP -> LogicalTypeAnnotation.timestampType(false, timeUnit(type));
            case TIMESTAMP_LTZ -> LogicalTypeAnnotation.timestampType(true, timeUnit(type));
        };
    }

    /** The unit a TIMESTAMP/TIMESTAMP_LTZ of this precision is stored in. */
    static TimeUnit timeUnit(DataType type) {
        if (type.precision() <= 3) {
            return TimeUnit.MILLIS;
        } else if (type.precision() <= 6) {
            return TimeUnit.MICROS;
        }
        return TimeUnit.NANOS;
    }

    /** Converts a stored INT64 of the column's unit back to a Weir timestamp. */
    static Timestamp toTimestamp(long value, DataType type) {
        return switch (ParquetTypes.timeUnit(type)) {
            case MILLIS -> Timestamp.ofMillis(value);
            case MICROS ->
                    new Timestamp(
                            Math.floorDiv(value, 1000L), (int) Math.floorMod(value, 1000L) * 1000);
            case NANOS ->
                    new Timestamp(
                            Math.floorDiv(value, 1_000_000L),
                            (int) Math.floorMod(value, 1_000_000L));
        };
    }

    /**
     * The smallest number of bytes whose two's complement holds every unscaled value of a DECIMAL
     * of this precision: the least n with 2^(8n-1) > 10^precision - 1 (16 for precision 38).
     */
    static int decimalByteWidth(int precision) {
        BigInteger maxUnscaled = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
        int width = 1;
        while (maxUnscaled.bitLength() > 8 * width - 1) {
            width++;
        }
        return width;
    }

    /**
     * Whether a column of a file can be read as {@code type}: same physical type, logical type and
     * (for fixed-length columns) width. Repetition is not compared: a required column reads into a
     * nullable field, and an optional one into a NOT NULL field (its nulls still read as nulls).
     */
    static boolean isReadableAs(PrimitiveType fileColumn, DataType type) {
        PrimitiveType expected = column(new Field(0, "c", type));
        return fileColumn.getPrimitiveTypeName() == expected.getPrimitiveTypeName()
                && Objects.equals(
                        fileColumn.getLogicalTypeAnnotation(), expected.getLogicalTypeAnnotation())
                && fileColumn.getTypeLength() == expected.getTypeLength();
    }
}
