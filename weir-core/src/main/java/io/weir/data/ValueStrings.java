package io.weir.data;

import io.weir.types.DataType;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Base64;

/**
 * The canonical text of a field value, as stored in metadata (partition values, key ranges, column
 * statistics) so that metadata files need no schema to be parsed. Values are the Java objects of
 * {@link BinaryRow#get}. Texts: booleans and integers as Java prints them, FLOAT and DOUBLE as the
 * shortest decimal that reads back ({@link DoubleTexts}: JDK 19+'s {@code Float.toString} / {@code
 * Double.toString} on every JDK), DECIMAL as a plain string, strings as themselves, binaries in
 * base64, DATE as {@code yyyy-MM-dd}, TIME as ISO local time, TIMESTAMP as epoch millis and nanos
 * {@code <millis>.<nanoOfMilli>}.
 */
public final class ValueStrings {
    private ValueStrings() {}

    public static String toText(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        return switch (type.root()) {
                // The shortest decimal that reads back (§2.3), the same on every JDK.
            case FLOAT -> DoubleTexts.ofFloat((Float) value);
            case DOUBLE -> DoubleTexts.of((Double) value);
            case DECIMAL -> ((BigDecimal) value).toPlainString();
            case BINARY, VARBINARY -> Base64.getEncoder().encodeToString((byte[]) value);
            case DATE -> LocalDate.ofEpochDay(((Number) value).intValue()).toString();
            case TIME -> LocalTime.ofNanoOfDay(((Number) value).longValue() * 1_000_000).toString();
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                Timestamp t = (Timestamp) value;
                yield t.millis() + "." + t.nanoOfMillisecond();
            }
            default -> value.toString();
        };
    }

    public static Object fromText(String text, DataType type) {
        if (text == null) {
            return null;
        }
        try {
            return switch (type.root()) {
                case BOOLEAN -> Boolean.parseBoolean(text);
                case TINYINT -> Byte.parseByte(text);
                case SMALLINT -> Short.parseShort(text);
                case INT -> Integer.parseInt(text);
                case BIGINT -> Long.parseLong(text);
                case FLOAT -> Float.parseFloat(text);
                case DOUBLE -> Double.parseDouble(text);
                case DECIMAL -> new BigDecimal(text).setScale(type.scale());
                case CHAR, VARCHAR -> text;
                case BINARY, VARBINARY -> Base64.getDecoder().decode(text);
                case DATE -> (int) LocalDate.parse(text).toEpochDay();
                case TIME -> (int) (LocalTime.parse(text).toNanoOfDay() / 1_000_000);
                case TIMESTAMP, TIMESTAMP_LTZ -> {
                    int dot = text.lastIndexOf('.');
                    yield new Timestamp(
                            Long.parseLong(text.substring(0, dot)),
                            Integer.parseInt(text.substring(dot + 1)));
                }
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "Cannot read '" + text + "' as a value of type " + type, e);
        }
    }
}
