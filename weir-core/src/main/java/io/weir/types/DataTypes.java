package io.weir.types;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Factories for {@link DataType}s (all nullable; call {@code notNull()}) and the SQL parser. */
public final class DataTypes {
    private static final Pattern SQL_TYPE =
            Pattern.compile(
                    "\\s*([A-Z_]+(?: [A-Z_]+)*?)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?"
                            + "(\\s+NOT\\s+NULL)?\\s*");

    private DataTypes() {}

    public static DataType BOOLEAN() {
        return of(TypeRoot.BOOLEAN);
    }

    public static DataType TINYINT() {
        return of(TypeRoot.TINYINT);
    }

    public static DataType SMALLINT() {
        return of(TypeRoot.SMALLINT);
    }

    public static DataType INT() {
        return of(TypeRoot.INT);
    }

    public static DataType BIGINT() {
        return of(TypeRoot.BIGINT);
    }

    public static DataType FLOAT() {
        return of(TypeRoot.FLOAT);
    }

    public static DataType DOUBLE() {
        return of(TypeRoot.DOUBLE);
    }

    public static DataType DECIMAL(int precision, int scale) {
        return new DataType(TypeRoot.DECIMAL, precision, scale, true);
    }

    public static DataType CHAR(int length) {
        return new DataType(TypeRoot.CHAR, length, 0, true);
    }

    public static DataType VARCHAR(int length) {
        return new DataType(TypeRoot.VARCHAR, length, 0, true);
    }

    public static DataType STRING() {
        return VARCHAR(DataType.MAX_LENGTH);
    }

    public static DataType BINARY(int length) {
        return new DataType(TypeRoot.BINARY, length, 0, true);
    }

    public static DataType VARBINARY(int length) {
        return new DataType(TypeRoot.VARBINARY, length, 0, true);
    }

    public static DataType BYTES() {
        return VARBINARY(DataType.MAX_LENGTH);
    }

    public static DataType DATE() {
        return of(TypeRoot.DATE);
    }

    public static DataType TIME(int precision) {
        return new DataType(TypeRoot.TIME, precision, 0, true);
    }

    public static DataType TIMESTAMP(int precision) {
        return new DataType(TypeRoot.TIMESTAMP, precision, 0, true);
    }

    public static DataType TIMESTAMP_LTZ(int precision) {
        return new DataType(TypeRoot.TIMESTAMP_LTZ, precision, 0, true);
    }

    private static DataType of(TypeRoot root) {
        return new DataType(root, 0, 0, true);
    }

    /**
     * Parses the SQL form written by {@link DataType#toString()}, e.g. {@code DECIMAL(10, 2) NOT
     * NULL}, {@code STRING}, {@code TIMESTAMP(3)}. Also accepts the usual aliases (INTEGER, BYTES,
     * TIMESTAMP WITH LOCAL TIME ZONE).
     */
    public static DataType parse(String sql) {
        Matcher m = SQL_TYPE.matcher(sql.toUpperCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("Cannot parse data type: '" + sql + "'");
        }
        String name = m.group(1);
        Integer p = m.group(2) == null ? null : Integer.valueOf(m.group(2));
        Integer s = m.group(3) == null ? null : Integer.valueOf(m.group(3));
        boolean nullable = m.group(4) == null;
        DataType type;
        try {
            type =
                    switch (name) {
                        case "BOOLEAN" -> noArgs(BOOLEAN(), p, sql);
                        case "TINYINT" -> noArgs(TINYINT(), p, sql);
                        case "SMALLINT" -> noArgs(SMALLINT(), p, sql);
                        case "INT", "INTEGER" -> noArgs(INT(), p, sql);
                        case "BIGINT" -> noArgs(BIGINT(), p, sql);
                        case "FLOAT" -> noArgs(FLOAT(), p, sql);
                        case "DOUBLE" -> noArgs(DOUBLE(), p, sql);
                        case "DATE" -> noArgs(DATE(), p, sql);
                        case "STRING" -> noArgs(STRING(), p, sql);
                        case "BYTES" -> noArgs(BYTES(), p, sql);
                        case "DECIMAL", "NUMERIC", "DEC" -> DECIMAL(or(p, 10), or(s, 0));
                        case "CHAR" -> CHAR(or(p, 1));
                        case "VARCHAR" -> VARCHAR(or(p, 1));
                        case "BINARY" -> BINARY(or(p, 1));
                        case "VARBINARY" -> VARBINARY(or(p, 1));
                        case "TIME" -> TIME(or(p, 0));
                        case "TIMESTAMP" -> TIMESTAMP(or(p, 6));
                        case "TIMESTAMP_LTZ", "TIMESTAMP WITH LOCAL TIME ZONE" ->
                                TIMESTAMP_LTZ(or(p, 6));
                        default ->
                                throw new IllegalArgumentException(
                                        "Cannot parse data type: '"
                                                + sql
                                                + "': unknown type "
                                                + name);
                    };
        } catch (IllegalArgumentException e) {
            if (e.getMessage().startsWith("Cannot parse")) {
                throw e;
            }
            throw new IllegalArgumentException(
                    "Cannot parse data type: '" + sql + "': " + e.getMessage(), e);
        }
        if (s != null && type.root() != TypeRoot.DECIMAL) {
            throw new IllegalArgumentException(
                    "Cannot parse data type: '" + sql + "': " + name + " takes no scale");
        }
        return nullable ? type : type.notNull();
    }

    private static DataType noArgs(DataType type, Integer p, String sql) {
        if (p != null) {
            throw new IllegalArgumentException(
                    "Cannot parse data type: '"
                            + sql
                            + "': "
                            + type.root()
                            + " takes no arguments");
        }
        return type;
    }

    private static int or(Integer value, int fallback) {
        return value == null ? fallback : value;
    }
}
