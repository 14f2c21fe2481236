package io.weir.expressions;

import io.weir.data.Timestamp;
import io.weir.types.DataType;

import java.math.BigInteger;
import java.util.Arrays;

/** How a column's values are compared: the representation of its literals and bounds. */
enum Kind {
    /** BOOLEAN (false &lt; true), integers, DATE, TIME, DECIMAL(p &lt;= 18) unscaled: a long. */
    LONG,
    /** FLOAT and DOUBLE, compared as doubles with IEEE 754 semantics. */
    DOUBLE,
    /** DECIMAL(p &gt; 18): the unscaled BigInteger at the column's scale. */
    BIG_DECIMAL,
    /** CHAR, VARCHAR (UTF-8), BINARY, VARBINARY: bytes in unsigned lexicographic order. */
    BYTES,
    /** TIMESTAMP, TIMESTAMP_LTZ: a {@link io.weir.data.Timestamp}. */
    TIMESTAMP;

    static Kind of(DataType type) {
        return switch (type.root()) {
            case BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, DATE, TIME -> LONG;
            case FLOAT, DOUBLE -> DOUBLE;
            case DECIMAL -> type.isFixedLength() ? LONG : BIG_DECIMAL;
            case CHAR, VARCHAR, BINARY, VARBINARY -> BYTES;
            case TIMESTAMP, TIMESTAMP_LTZ -> TIMESTAMP;
        };
    }

    /** Orders two values of this kind's comparison form (DOUBLE: as {@link Double#compare}). */
    int compare(Object a, Object b) {
        return switch (this) {
            case LONG -> Long.compare((Long) a, (Long) b);
            case DOUBLE -> Double.compare((Double) a, (Double) b);
            case BIG_DECIMAL -> ((BigInteger) a).compareTo((BigInteger) b);
            case BYTES -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
            case TIMESTAMP -> ((Timestamp) a).compareTo((Timestamp) b);
        };
    }
}
