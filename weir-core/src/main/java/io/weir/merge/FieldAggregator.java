package io.weir.merge;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.exceptions.ValidationException;
import io.weir.options.AggregateFunction;
import io.weir.types.DataType;
import io.weir.types.RowType;
import io.weir.types.TypeRoot;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * Folds one field of the {@code aggregation} engine: writes the field of the next accumulator from
 * the current one ({@code old}, null for a key's first row) and a row. Every function is
 * associative over the rows it folds, so that the writer, compaction and merge-on-read agree
 * however the rows were grouped before. Reads and writes the binary slots: no allocation per
 * record, but for DECIMAL beyond 18 digits and products of decimals.
 */
final class FieldAggregator {
    private static final Set<TypeRoot> INTEGRAL =
            EnumSet.of(TypeRoot.TINYINT, TypeRoot.SMALLINT, TypeRoot.INT, TypeRoot.BIGINT);
    private static final Set<TypeRoot> NUMERIC =
            EnumSet.of(
                    TypeRoot.TINYINT,
                    TypeRoot.SMALLINT,
                    TypeRoot.INT,
                    TypeRoot.BIGINT,
                    TypeRoot.FLOAT,
                    TypeRoot.DOUBLE,
                    TypeRoot.DECIMAL);

    private final AggregateFunction function;
    private final int pos;
    private final DataType type;
    private final boolean ignoreRetract;
    private final byte[] delimiter;
    private final KeyFields order;
    private final long decimalBound;
    private byte[] scratch = new byte[64];

    private FieldAggregator(
            AggregateFunction function,
            int pos,
            RowType rowType,
            boolean ignoreRetract,
            String delimiter) {
        this.function = function;
        this.pos = pos;
        this.type = rowType.type(pos);
        this.ignoreRetract = ignoreRetract;
        this.delimiter = delimiter.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        this.order =
                function == AggregateFunction.MIN || function == AggregateFunction.MAX
                        ? KeyFields.of(rowType, new int[] {pos})
                        : null;
        this.decimalBound =
                type.root() == TypeRoot.DECIMAL
                                && type.precision() <= DataType.MAX_COMPACT_DECIMAL_PRECISION
                        ? BigInteger.TEN.pow(type.precision()).longValueExact()
                        : 0;
    }

    /** The aggregator of a field; refuses a function the field's type cannot take. */
    static FieldAggregator of(
            AggregateFunction function,
            int pos,
            RowType rowType,
            boolean ignoreRetract,
            String delimiter) {
        DataType type = rowType.type(pos);
        String field = rowType.field(pos).name();
        TypeRoot root = type.root();
        String needs =
                switch (function) {
                    case SUM, PRODUCT -> NUMERIC.contains(root) ? null : "a numeric column";
                    case COUNT ->
                            root == TypeRoot.INT || root == TypeRoot.BIGINT
                                    ? null
                                    : "an INT or BIGINT column";
                    case BOOL_AND, BOOL_OR -> root == TypeRoot.BOOLEAN ? null : "a BOOLEAN column";
                    case LISTAGG ->
                            root == TypeRoot.VARCHAR || root == TypeRoot.CHAR
                                    ? null
                                    : "a STRING (VARCHAR or CHAR) column";
                    case MIN, MAX -> root == TypeRoot.BOOLEAN ? "a comparable column" : null;
                    default -> null;
                };
        ValidationException.check(
                needs == null,
                "option 'fields.%s.aggregate-function': '%s' needs %s; '%s' is %s",
                field,
                MergeFunctions.name(function),
                needs,
                field,
                type);
        return new FieldAggregator(function, pos, rowType, ignoreRetract, delimiter);
    }

    /**
     * Writes the field of the next accumulator.
     *
     * @param old the current accumulator, or null at a key's first row
     * @param retract whether {@code row} is a retraction (only records as written can be)
     * @param records whether {@code row} is a record as written rather than a folded row
     */
    void aggregate(
            BinaryRowWriter out, BinaryRow old, BinaryRow row, boolean retract, boolean records) {
        if (retract && !function.canRetract()) {
            if (!ignoreRetract) {
                // The writer refuses such records (MergeFunctions.retractionRefusal).
                throw new IllegalStateException("A refused retraction reached the merge");
            }
            copyOrNull(out, old);
            return;
        }
        boolean oldNull = old == null || old.isNullAt(pos);
        boolean newNull = row.isNullAt(pos);
        switch (function) {
            case SUM -> {
                if (retract && ignoreRetract) {
                    copyOrNull(out, old);
                } else if (newNull) {
                    copyOrNull(out, old);
                } else {
                    sum(out, oldNull ? null : old, row, retract);
                }
            }
            case COUNT -> {
                long contribution = records ? (newNull ? 0 : 1) : (newNull ? 0 : integral(row));
                if (retract) {
                    contribution = ignoreRetract ? 0 : -contribution;
                }
                writeIntegral(out, (oldNull ? 0 : integral(old)) + contribution);
            }
            case PRODUCT -> {
                if (newNull) {
                    copyOrNull(out, old);
                } else if (oldNull) {
                    out.copy(pos, row, pos, type);
                } else {
                    product(out, old, row);
                }
            }
            case MIN, MAX -> {
                if (newNull) {
                    copyOrNull(out, old);
                } else if (oldNull) {
                    out.copy(pos, row, pos, type);
                } else {
                    int c = order.compare(row, old);
                    boolean takeNew = function == AggregateFunction.MIN ? c < 0 : c > 0;
                    out.copy(pos, takeNew ? row : old, pos, type);
                }
            }
            case LAST_VALUE -> {
                if (retract) {
                    if (ignoreRetract) {
                        copyOrNull(out, old);
                    } else {
                        out.setNullAt(pos);
                    }
                } else {
                    out.copy(pos, row, pos, type);
                }
            }
            case LAST_NON_NULL_VALUE -> copyOrNull(out, retract || newNull ? old : row);
            case FIRST_VALUE -> copyOrNull(out, old != null ? old : row);
            case FIRST_NON_NULL_VALUE -> copyOrNull(out, oldNull ? row : old);
            case BOOL_AND, BOOL_OR -> {
                if (newNull) {
                    copyOrNull(out, old);
                } else if (oldNull) {
                    out.copy(pos, row, pos, type);
                } else {
                    boolean a = old.getBoolean(pos);
                    boolean b = row.getBoolean(pos);
                    out.writeBoolean(pos, function == AggregateFunction.BOOL_AND ? a && b : a || b);
                }
            }
            case LISTAGG -> {
                if (newNull) {
                    copyOrNull(out, old);
                } else if (oldNull) {
                    out.copy(pos, row, pos, type);
                } else {
                    listagg(out, old, row);
                }
            }
        }
    }

    private void copyOrNull(BinaryRowWriter out, BinaryRow from) {
        if (from == null) {
            out.setNullAt(pos);
        } else {
            out.copy(pos, from, pos, type);
        }
    }

    private void sum(BinaryRowWriter out, BinaryRow old, BinaryRow row, boolean negate) {
        switch (type.root()) {
            case FLOAT, DOUBLE -> {
                double v = real(row);
                writeReal(out, (old == null ? 0 : real(old)) + (negate ? -v : v));
            }
            case DECIMAL -> {
                if (decimalBound > 0) {
                    long v = row.getLong(pos);
                    long s = (old == null ? 0 : old.getLong(pos)) + (negate ? -v : v);
                    // Beyond the precision (or the long range) the sum is null, as Flink's is.
                    if (s <= -decimalBound || s >= decimalBound) {
                        out.setNullAt(pos);
                    } else {
                        out.writeLong(pos, s);
                    }
                } else {
                    BigDecimal v = decimal(row);
                    BigDecimal s =
                            (old == null ? BigDecimal.ZERO : decimal(old))
                                    .add(negate ? v.negate() : v);
                    writeDecimalOrNull(out, s);
                }
            }
            default -> {
                long v = integral(row);
                writeIntegral(out, (old == null ? 0 : integral(old)) + (negate ? -v : v));
            }
        }
    }

    private void product(BinaryRowWriter out, BinaryRow old, BinaryRow row) {
        switch (type.root()) {
            case FLOAT, DOUBLE -> writeReal(out, real(old) * real(row));
            case DECIMAL -> writeDecimalOrNull(out, decimal(old).multiply(decimal(row)));
            default -> writeIntegral(out, integral(old) * integral(row));
        }
    }

    private void listagg(BinaryRowWriter out, BinaryRow old, BinaryRow row) {
        int a = old.varDataLength(pos);
        int b = row.varDataLength(pos);
        int length = a + delimiter.length + b;
        if (scratch.length < length) {
            scratch = Arrays.copyOf(scratch, Math.max(length, scratch.length * 2));
        }
        System.arraycopy(old.bytes(), old.varDataOffset(pos), scratch, 0, a);
        System.arraycopy(delimiter, 0, scratch, a, delimiter.length);
        System.arraycopy(row.bytes(), row.varDataOffset(pos), scratch, a + delimiter.length, b);
        out.writeBinary(pos, scratch, 0, length);
    }

    private long integral(BinaryRow row) {
        return switch (type.root()) {
            case TINYINT -> row.getByte(pos);
            case SMALLINT -> row.getShort(pos);
            case INT -> row.getInt(pos);
            default -> row.getLong(pos);
        };
    }

    /** Writes an integral value, wrapping to the column's width as Java (and Flink) do. */
    private void writeIntegral(BinaryRowWriter out, long value) {
        switch (type.root()) {
            case TINYINT -> out.writeByte(pos, (byte) value);
            case SMALLINT -> out.writeShort(pos, (short) value);
            case INT -> out.writeInt(pos, (int) value);
            default -> out.writeLong(pos, value);
        }
    }

    private double real(BinaryRow row) {
        return type.root() == TypeRoot.FLOAT ? row.getFloat(pos) : row.getDouble(pos);
    }

    private void writeReal(BinaryRowWriter out, double value) {
        if (type.root() == TypeRoot.FLOAT) {
            out.writeFloat(pos, (float) value);
        } else {
            out.writeDouble(pos, value);
        }
    }

    private BigDecimal decimal(BinaryRow row) {
        return row.getDecimal(pos, type.precision(), type.scale());
    }

    /** A decimal that no longer fits the column's precision is null, as in Flink. */
    private void writeDecimalOrNull(BinaryRowWriter out, BigDecimal value) {
        BigDecimal scaled = value.setScale(type.scale(), java.math.RoundingMode.HALF_UP);
        if (scaled.precision() > type.precision()) {
            out.writeDecimal(pos, null, type.precision(), type.scale());
        } else {
            out.writeDecimal(pos, scaled, type.precision(), type.scale());
        }
    }
}
