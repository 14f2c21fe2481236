package io.weir.expressions;

import io.weir.data.Timestamp;
import io.weir.types.DataType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;

/**
 * Conversions of literals: from the Java forms users pass to the canonical form of a column's type
 * (the objects of {@code BinaryRow.get}, except that FLOAT is a Double), and from that form to the
 * representation the evaluators compare ({@link Kind}).
 */
final class Literals {
    private static final int MILLIS_PER_DAY = 86_400_000;

    private Literals() {}

    /**
     * The canonical value of {@code value} for a column of {@code type}.
     *
     * @throws IllegalArgumentException saying what is wrong with the value (no column name)
     */
    static Object convert(Object value, DataType type) {
        return switch (type.root()) {
            case BOOLEAN -> toBoolean(value, type);
            case TINYINT -> (byte) integral(value, type, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SMALLINT -> (short) integral(value, type, Short.MIN_VALUE, Short.MAX_VALUE);
            case INT -> (int) integral(value, type, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT -> integral(value, type, Long.MIN_VALUE, Long.MAX_VALUE);
            case FLOAT, DOUBLE -> toDouble(value, type);
            case DECIMAL -> toDecimal(value, type);
            case CHAR, VARCHAR -> {
                if (value instanceof CharSequence || value instanceof Character) {
                    yield value.toString();
                }
                throw invalid(value, type);
            }
            case BINARY, VARBINARY -> {
                if (value instanceof byte[] b) {
                    yield b.clone();
                }
                throw invalid(value, type);
            }
            case DATE -> toDate(value, type);
            case TIME -> toTime(value, type);
            case TIMESTAMP, TIMESTAMP_LTZ -> toTimestamp(value, type);
        };
    }

    /**
     * The comparison form ({@link Kind}) of a canonical value, or of a value read by {@code
     * ValueStrings.fromText}: a Long, Double, BigInteger, byte[] or Timestamp.
     */
    static Object toDomain(Object value, DataType type) {
        return switch (Kind.of(type)) {
            case LONG -> {
                if (value instanceof Boolean b) {
                    yield b ? 1L : 0L;
                } else if (value instanceof BigDecimal d) {
                    yield d.setScale(type.scale(), RoundingMode.UNNECESSARY)
                            .unscaledValue()
                            .longValueExact();
                }
                yield ((Number) value).longValue();
            }
            case DOUBLE -> ((Number) value).doubleValue();
            case BIG_DECIMAL ->
                    ((BigDecimal) value)
                            .setScale(type.scale(), RoundingMode.UNNECESSARY)
                            .unscaledValue();
            case BYTES ->
                    value instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) value;
            case TIMESTAMP -> (Timestamp) value;
        };
    }

    /** A literal as given, for {@code toString()}: strings quoted, binaries in hex. */
    static String format(Object value) {
        if (value instanceof CharSequence || value instanceof Character) {
            return "'" + value.toString().replace("'", "''") + "'";
        } else if (value instanceof byte[] b) {
            return "X'" + HexFormat.of().withUpperCase().formatHex(b) + "'";
        } else if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return String.valueOf(value);
    }

    /** A canonical value of {@code type}, for {@code toString()}: dates and times in ISO form. */
    static String format(Object value, DataType type) {
        return switch (type.root()) {
            case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
            case TIME -> LocalTime.ofNanoOfDay((Integer) value * 1_000_000L).toString();
            case TIMESTAMP_LTZ -> ((Timestamp) value).toInstant().toString();
            default -> format(value);
        };
    }

    private static Boolean toBoolean(Object value, DataType type) {
        if (value instanceof Boolean b) {
            return b;
        } else if (value instanceof String s && (s.equals("true") || s.equals("false"))) {
            return Boolean.valueOf(s);
        }
        throw invalid(value, type);
    }

    private static long integral(Object value, DataType type, long min, long max) {
        BigInteger i;
        try {
            i = exactNumber(value, type).toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw invalid(value, type);
        }
        if (i.bitLength() > 63 || i.longValue() < min || i.longValue() > max) {
            throw new IllegalArgumentException(
                    format(value) + " is out of range for " + name(type));
        }
        return i.longValue();
    }

    private static BigDecimal exactNumber(Object value, DataType type) {
        if (value instanceof BigDecimal d) {
            return d;
        } else if (value instanceof BigInteger i) {
            return new BigDecimal(i);
        } else if (value instanceof Long
                || value instanceof Integer
                || value instanceof Short
                || value instanceof Byte) {
            return BigDecimal.valueOf(((Number) value).longValue());
        } else if (value instanceof Float f && Float.isFinite(f)) {
            return new BigDecimal(Float.toString(f));
        } else if (value instanceof Double d && Double.isFinite(d)) {
            return BigDecimal.valueOf(d);
        } else if (value instanceof String s) {
            try {
                return new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                throw invalid(value, type);
            }
        }
        throw invalid(value, type);
    }

    private static Double toDouble(Object value, DataType type) {
        if (value instanceof Number n && !(value instanceof BigDecimal)) {
            return n.doubleValue();
        } else if (value instanceof BigDecimal d) {
            return d.doubleValue();
        } else if (value instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                throw invalid(value, type);
            }
        }
        throw invalid(value, type);
    }

    private static BigDecimal toDecimal(Object value, DataType type) {
        BigDecimal d = exactNumber(value, type);
        BigDecimal scaled;
        try {
            scaled = d.setScale(type.scale(), RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            throw doesNotFit(value, type);
        }
        if (scaled.precision() > type.precision()) {
            throw doesNotFit(value, type);
        }
        return scaled;
    }

    private static Integer toDate(Object value, DataType type) {
        if (value instanceof LocalDate d) {
            return epochDay(d, value, type);
        } else if (value instanceof String s) {
            try {
                return epochDay(LocalDate.parse(s.trim()), value, type);
            } catch (DateTimeParseException e) {
                throw invalid(value, type);
            }
        }
        return (int) integral(value, type, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    private static int epochDay(LocalDate date, Object value, DataType type) {
        long day = date.toEpochDay();
        if (day != (int) day) {
            throw new IllegalArgumentException(
                    format(value) + " is out of range for " + name(type));
        }
        return (int) day;
    }

    private static Integer toTime(Object value, DataType type) {
        LocalTime time = null;
        if (value instanceof LocalTime t) {
            time = t;
        } else if (value instanceof String s) {
            try {
                time = LocalTime.parse(s.trim());
            } catch (DateTimeParseException e) {
                throw invalid(value, type);
            }
        }
        if (time != null) {
            if (time.getNano() % 1_000_000 != 0) {
                throw new IllegalArgumentException(
                        format(value)
                                + " has a fraction of a millisecond; "
                                + name(type)
                                + " values are whole milliseconds");
            }
            return (int) (time.toNanoOfDay() / 1_000_000);
        }
        return (int) integral(value, type, 0, MILLIS_PER_DAY - 1);
    }

    private static Timestamp toTimestamp(Object value, DataType type) {
        if (value instanceof Timestamp t) {
            return t;
        } else if (value instanceof LocalDateTime t) {
            return Timestamp.of(t);
        } else if (value instanceof Instant t) {
            return Timestamp.of(t);
        } else if (value instanceof String s) {
            String text = s.trim();
            try {
                return Timestamp.of(LocalDateTime.parse(text.replace(' ', 'T')));
            } catch (DateTimeParseException e) {
                try {
                    return Timestamp.of(Instant.parse(text));
                } catch (DateTimeParseException e2) {
                    throw invalid(value, type);
                }
            }
        }
        throw invalid(value, type);
    }

    private static IllegalArgumentException invalid(Object value, DataType type) {
        String shown =
                value instanceof CharSequence || value instanceof Number
                        ? format(value)
                        : format(value) + " (" + value.getClass().getSimpleName() + ")";
        return new IllegalArgumentException(shown + " is not a valid " + name(type));
    }

    private static IllegalArgumentException doesNotFit(Object value, DataType type) {
        return new IllegalArgumentException(format(value) + " does not fit " + name(type));
    }

    static String name(DataType type) {
        return type.asNullable().toString();
    }
}
