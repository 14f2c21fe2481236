package io.weir.expressions;

import io.weir.data.Timestamp;
import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.Field;
import io.weir.types.RowType;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Values for randomized tests: small pools per type with edge cases (extremes, NaN, -0.0,
 * inlined/long strings, supplementary characters, unsigned bytes) so that random rows and literals
 * collide often.
 */
final class TestData {
    private TestData() {}

    /** A row type with every type; field ids differ from positions to catch mix-ups. */
    static final RowType ALL_TYPES =
            withIds(
                    "b", DataTypes.BOOLEAN(),
                    "t", DataTypes.TINYINT(),
                    "s", DataTypes.SMALLINT(),
                    "i", DataTypes.INT(),
                    "l", DataTypes.BIGINT(),
                    "f", DataTypes.FLOAT(),
                    "d", DataTypes.DOUBLE(),
                    "dec", DataTypes.DECIMAL(10, 2),
                    "bigdec", DataTypes.DECIMAL(30, 5),
                    "c", DataTypes.CHAR(5),
                    "v", DataTypes.VARCHAR(20),
                    "str", DataTypes.STRING(),
                    "bin", DataTypes.BINARY(4),
                    "bytes", DataTypes.BYTES(),
                    "date", DataTypes.DATE(),
                    "time", DataTypes.TIME(3),
                    "ts", DataTypes.TIMESTAMP(3),
                    "ts6", DataTypes.TIMESTAMP(6),
                    "ltz", DataTypes.TIMESTAMP_LTZ(9));

    static RowType withIds(Object... namesAndTypes) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < namesAndTypes.length; i += 2) {
            fields.add(
                    new Field(
                            100 + i / 2,
                            (String) namesAndTypes[i],
                            (DataType) namesAndTypes[i + 1]));
        }
        return new RowType(fields);
    }

    /** Values as {@code BinaryRow.get} returns them. */
    static List<Object> pool(DataType type) {
        return switch (type.root()) {
            case BOOLEAN -> List.of(true, false);
            case TINYINT ->
                    List.of((byte) -128, (byte) -1, (byte) 0, (byte) 1, (byte) 2, (byte) 127);
            case SMALLINT ->
                    List.of(Short.MIN_VALUE, (short) -300, (short) 0, (short) 1, Short.MAX_VALUE);
            case INT -> List.of(Integer.MIN_VALUE, -5, 0, 1, 5, 1_000_000, Integer.MAX_VALUE);
            case BIGINT -> List.of(Long.MIN_VALUE, -5L, 0L, 1L, 5L, 1L << 40, Long.MAX_VALUE);
            case FLOAT ->
                    List.of(
                            Float.NaN,
                            Float.NEGATIVE_INFINITY,
                            -1.5f,
                            -0.0f,
                            0.0f,
                            0.1f,
                            1.5f,
                            Float.MAX_VALUE,
                            Float.POSITIVE_INFINITY);
            case DOUBLE ->
                    List.of(
                            Double.NaN,
                            Double.NEGATIVE_INFINITY,
                            -1.5,
                            -0.0,
                            0.0,
                            0.1,
                            1.5,
                            1e300,
                            Double.POSITIVE_INFINITY);
            case DECIMAL ->
                    type.precision() <= 18
                            ? decimals(type, "-12.34", "0", "0.01", "1", "99999999.99")
                            : decimals(
                                    type,
                                    "-123456789012345678901.12345",
                                    "0",
                                    "1.5",
                                    "98765432109876543210.5");
            case CHAR, VARCHAR ->
                    List.of(
                            "",
                            "a",
                            "ab",
                            "abc",
                            "abcdefgh",
                            "abcdefghij",
                            "b",
                            "é",
                            "éa",
                            "\uE000",
                            "\uD83D\uDE00",
                            "\uD83D\uDE00x",
                            "z");
            case BINARY, VARBINARY ->
                    List.of(
                            new byte[0],
                            new byte[] {0},
                            new byte[] {0, 1},
                            new byte[] {0x7f},
                            new byte[] {(byte) 0x80},
                            new byte[] {(byte) 0xff},
                            new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});
            case DATE ->
                    List.of(-1, 0, 19_000, 19_001, (int) LocalDate.of(9999, 12, 31).toEpochDay());
            case TIME -> List.of(0, 1, 3_600_000, 86_399_999);
            case TIMESTAMP, TIMESTAMP_LTZ -> timestamps(type);
        };
    }

    /** Literals: the pool plus values between and beside its values. */
    static List<Object> literalPool(DataType type) {
        List<Object> values = new ArrayList<>(pool(type));
        switch (type.root()) {
            case INT, BIGINT -> values.addAll(List.of(3, -6, 2));
            case FLOAT, DOUBLE -> values.addAll(List.of(0.5, 0.1f, -2.0));
            case DECIMAL -> values.addAll(List.of(new BigDecimal("0.5"), 7));
            case CHAR, VARCHAR -> values.addAll(List.of("aa", "abd", "\uFFFF", "ab\u0000", "c"));
            case BINARY, VARBINARY -> values.add(new byte[] {0, 0});
            case DATE -> values.add(LocalDate.of(2022, 1, 1));
            case TIME -> values.add(LocalTime.of(0, 30));
            case TIMESTAMP, TIMESTAMP_LTZ -> values.add(new Timestamp(0, 500));
            default -> {}
        }
        return values;
    }

    static Object randomValue(DataType type, Random random, double nullProbability) {
        if (random.nextDouble() < nullProbability) {
            return null;
        }
        List<Object> pool = pool(type);
        return pool.get(random.nextInt(pool.size()));
    }

    /** A literal for {@code type}, often in another Java form than {@code BinaryRow.get}'s. */
    static Object randomLiteral(DataType type, Random random) {
        List<Object> pool = literalPool(type);
        Object v = pool.get(random.nextInt(pool.size()));
        if (!random.nextBoolean()) {
            return v;
        }
        return switch (type.root()) {
            case TINYINT, SMALLINT -> ((Number) v).intValue();
            case INT -> ((Number) v).longValue();
            case BIGINT ->
                    ((Number) v).longValue() == ((Number) v).intValue()
                            ? ((Number) v).intValue()
                            : v;
            case FLOAT -> v instanceof Float f ? (double) f : v;
            case DECIMAL -> v instanceof BigDecimal d ? d.stripTrailingZeros() : v;
            case DATE -> v instanceof Integer day ? LocalDate.ofEpochDay(day) : v;
            case TIME -> v instanceof Integer ms ? LocalTime.ofNanoOfDay(ms * 1_000_000L) : v;
            case TIMESTAMP -> ((Timestamp) v).toLocalDateTime();
            case TIMESTAMP_LTZ -> ((Timestamp) v).toInstant();
            default -> v;
        };
    }

    private static List<Object> decimals(DataType type, String... texts) {
        List<Object> values = new ArrayList<>();
        for (String t : texts) {
            values.add(new BigDecimal(t).setScale(type.scale()));
        }
        return values;
    }

    private static List<Object> timestamps(DataType type) {
        List<Object> values = new ArrayList<>();
        int[] nanos = type.isFixedLength() ? new int[] {0} : new int[] {0, 1, 999_999};
        for (long millis : new long[] {-1000, 0, 1_700_000_000_000L}) {
            for (int n : nanos) {
                values.add(new Timestamp(millis, n));
            }
        }
        return values;
    }
}
