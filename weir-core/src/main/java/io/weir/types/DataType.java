package io.weir.types;

import java.util.Objects;

/**
 * A logical type: a {@link TypeRoot} with its parameters and nullability.
 *
 * <p>{@code precision} is the length for CHAR/VARCHAR/BINARY/VARBINARY, the precision for DECIMAL,
 * TIME, TIMESTAMP and TIMESTAMP_LTZ, and 0 otherwise. {@code scale} is used by DECIMAL only. STRING
 * and BYTES are VARCHAR and VARBINARY of {@link #MAX_LENGTH}.
 *
 * <p>{@link #toString()} is the SQL form and {@link DataTypes#parse(String)} reads it back; that
 * form is what table metadata stores.
 */
public record DataType(TypeRoot root, int precision, int scale, boolean nullable) {

    public static final int MAX_LENGTH = Integer.MAX_VALUE;
    public static final int MAX_DECIMAL_PRECISION = 38;

    /** Decimals up to this precision are stored as an unscaled long in the fixed part. */
    public static final int MAX_COMPACT_DECIMAL_PRECISION = 18;

    /** Timestamps up to this precision are stored as epoch milliseconds in the fixed part. */
    public static final int MAX_COMPACT_TIMESTAMP_PRECISION = 3;

    public DataType {
        Objects.requireNonNull(root, "root");
        switch (root) {
            case CHAR, VARCHAR, BINARY, VARBINARY ->
                    check(precision >= 1, root, "length must be >= 1");
            case DECIMAL -> {
                check(
                        precision >= 1 && precision <= MAX_DECIMAL_PRECISION,
                        root,
                        "precision must be between 1 and 38");
                check(
                        scale >= 0 && scale <= precision,
                        root,
                        "scale must be between 0 and precision");
            }
            case TIME, TIMESTAMP, TIMESTAMP_LTZ ->
                    check(
                            precision >= 0 && precision <= 9,
                            root,
                            "precision must be between 0 and 9");
            default -> {
                check(precision == 0, root, "takes no precision");
            }
        }
        if (root != TypeRoot.DECIMAL) {
            check(scale == 0, root, "takes no scale");
        }
    }

    private static void check(boolean condition, TypeRoot root, String message) {
        if (!condition) {
            throw new IllegalArgumentException("Invalid " + root + " type: " + message);
        }
    }

    public DataType notNull() {
        return nullable ? new DataType(root, precision, scale, false) : this;
    }

    public DataType asNullable() {
        return nullable ? this : new DataType(root, precision, scale, true);
    }

    /** The length of a CHAR/VARCHAR/BINARY/VARBINARY type. */
    public int length() {
        return precision;
    }

    /**
     * Whether a value of this type is kept entirely in its 8-byte fixed slot of a {@code BinaryRow}
     * (otherwise the slot holds an offset and length into the variable-length part).
     */
    public boolean isFixedLength() {
        return switch (root) {
            case CHAR, VARCHAR, BINARY, VARBINARY -> false;
            case DECIMAL -> precision <= MAX_COMPACT_DECIMAL_PRECISION;
            case TIMESTAMP, TIMESTAMP_LTZ -> precision <= MAX_COMPACT_TIMESTAMP_PRECISION;
            default -> true;
        };
    }

    @Override
    public String toString() {
        String base =
                switch (root) {
                    case VARCHAR ->
                            precision == MAX_LENGTH ? "STRING" : "VARCHAR(" + precision + ")";
                    case VARBINARY ->
                            precision == MAX_LENGTH ? "BYTES" : "VARBINARY(" + precision + ")";
                    case CHAR, BINARY -> root + "(" + precision + ")";
                    case DECIMAL -> "DECIMAL(" + precision + ", " + scale + ")";
                    case TIME, TIMESTAMP -> root + "(" + precision + ")";
                    case TIMESTAMP_LTZ -> "TIMESTAMP_LTZ(" + precision + ")";
                    default -> root.name();
                };
        return nullable ? base : base + " NOT NULL";
    }
}
