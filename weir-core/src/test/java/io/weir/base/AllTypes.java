package io.weir.base;

import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.Timestamp;
import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * A table with a column of every type and, for each column, the edge values a base file must keep:
 * nulls, empty and inlined (at most 7 bytes) and long strings, a 100 KB string, unicode, decimal
 * and integer limits, NaN, infinities and -0.0, timestamps before 1970 with nanos.
 */
final class AllTypes {
    static final BigDecimal MAX_38 =
            new BigDecimal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE));
    static final String LONG_STRING = longString(100 * 1024);
    static final byte[] LONG_BYTES = randomBytes(100 * 1024 + 3, 7);

    static final Schema SCHEMA =
            Schema.builder()
                    .column("id", DataTypes.BIGINT())
                    .column("b", DataTypes.BOOLEAN())
                    .column("ti", DataTypes.TINYINT())
                    .column("si", DataTypes.SMALLINT())
                    .column("i", DataTypes.INT())
                    .column("bi", DataTypes.BIGINT())
                    .column("f", DataTypes.FLOAT())
                    .column("d", DataTypes.DOUBLE())
                    .column("dec9", DataTypes.DECIMAL(9, 2))
                    .column("dec18", DataTypes.DECIMAL(18, 4))
                    .column("dec20", DataTypes.DECIMAL(20, 5))
                    .column("dec38", DataTypes.DECIMAL(38, 0))
                    .column("dec38s", DataTypes.DECIMAL(38, 18))
                    .column("ch", DataTypes.CHAR(10))
                    .column("vc", DataTypes.VARCHAR(100))
                    .column("s", DataTypes.STRING())
                    .column("bin", DataTypes.BINARY(4))
                    .column("vb", DataTypes.BYTES())
                    .column("date", DataTypes.DATE())
                    .column("time", DataTypes.TIME(3))
                    .column("ts0", DataTypes.TIMESTAMP(0))
                    .column("ts3", DataTypes.TIMESTAMP(3))
                    .column("ts6", DataTypes.TIMESTAMP(6))
                    .column("ts9", DataTypes.TIMESTAMP(9))
                    .column("ltz3", DataTypes.TIMESTAMP_LTZ(3))
                    .column("ltz6", DataTypes.TIMESTAMP_LTZ(6))
                    .column("ltz9", DataTypes.TIMESTAMP_LTZ(9))
                    .column("req_i", DataTypes.INT().notNull())
                    .column("req_s", DataTypes.STRING().notNull())
                    .column("req_dec38", DataTypes.DECIMAL(38, 10).notNull())
                    .column("req_ts9", DataTypes.TIMESTAMP(9).notNull())
                    .column("uniq", DataTypes.STRING())
                    .primaryKey("id")
                    .build();

    static final RowType ROW_TYPE = SCHEMA.rowType();

    /**
     * Edge values per column (except id and uniq, which are per row); nullable ones include null.
     */
    static final List<List<Object>> EDGES =
            List.of(
                    List.of(), // id
                    values(true, false, null),
                    values(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0, (byte) -1, null),
                    values(Short.MIN_VALUE, Short.MAX_VALUE, (short) 0, (short) -7, null),
                    values(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, null),
                    values(Long.MIN_VALUE, Long.MAX_VALUE, 0L, 42L, null),
                    values(
                            Float.NaN,
                            Float.POSITIVE_INFINITY,
                            Float.NEGATIVE_INFINITY,
                            -0.0f,
                            0.0f,
                            Float.MIN_VALUE,
                            Float.MAX_VALUE,
                            -Float.MAX_VALUE,
                            1.5f,
                            null),
                    values(
                            Double.NaN,
                            Double.POSITIVE_INFINITY,
                            Double.NEGATIVE_INFINITY,
                            -0.0d,
                            0.0d,
                            Double.MIN_VALUE,
                            Double.MAX_VALUE,
                            -Double.MAX_VALUE,
                            -2.25d,
                            null),
                    values(
                            new BigDecimal("9999999.99"),
                            new BigDecimal("-9999999.99"),
                            new BigDecimal("0.00"),
                            new BigDecimal("0.01"),
                            null),
                    values(
                            new BigDecimal("99999999999999.9999"),
                            new BigDecimal("-99999999999999.9999"),
                            new BigDecimal("0.0000"),
                            new BigDecimal("-0.0001"),
                            null),
                    values(
                            new BigDecimal("999999999999999.99999"),
                            new BigDecimal("-999999999999999.99999"),
                            new BigDecimal("0.00000"),
                            new BigDecimal("92233720368547.75808"),
                            new BigDecimal("-92233720368547.75809"),
                            null),
                    values(
                            MAX_38,
                            MAX_38.negate(),
                            BigDecimal.ZERO,
                            BigDecimal.ONE,
                            BigDecimal.ONE.negate(),
                            new BigDecimal(BigInteger.TWO.pow(63)),
                            new BigDecimal(
                                    BigInteger.TWO.pow(63).negate().subtract(BigInteger.ONE)),
                            new BigDecimal(BigInteger.TWO.pow(120)),
                            null),
                    values(
                            MAX_38.movePointLeft(18),
                            MAX_38.movePointLeft(18).negate(),
                            BigDecimal.ZERO.setScale(18),
                            new BigDecimal("1E-18").setScale(18),
                            new BigDecimal("-1E-18").setScale(18),
                            null),
                    values("", "a", "abcdefg", "abcdefgh", "äöü", "ab😀cd", null),
                    values("", "x", "1234567", "12345678", "日本語テキスト", "Ünïcödé ✓ 𝄞", null),
                    values("", "short", "seven77", "eight888", LONG_STRING, "é", "\u0000nul", null),
                    values(
                            new byte[] {0, 1, 2, 3},
                            new byte[] {-1, -1, -1, -1},
                            new byte[] {0, 0, 0, 0},
                            null),
                    values(
                            new byte[0],
                            new byte[] {1, 2, 3, 4, 5, 6, 7},
                            new byte[] {-1, 0, -1, 0, -1, 0, -1, 0},
                            LONG_BYTES,
                            null),
                    values(
                            (int) LocalDate.of(1, 1, 1).toEpochDay(),
                            (int) LocalDate.of(9999, 12, 31).toEpochDay(),
                            0,
                            -1,
                            Integer.MIN_VALUE,
                            Integer.MAX_VALUE,
                            null),
                    values(0, 86_399_999, millisOfDay("12:34:56.789"), null),
                    values(
                            ts("1970-01-01T00:00:00"),
                            ts("1969-12-31T23:59:59"),
                            ts("0001-01-01T00:00:00"),
                            ts("9999-12-31T23:59:59"),
                            null),
                    values(
                            ts("1969-12-31T23:59:59.999"),
                            ts("1900-01-01T00:00:00.001"),
                            ts("2024-02-29T12:00:00.5"),
                            ts("0001-01-01T00:00:00"),
                            null),
                    values(
                            ts("1969-12-31T23:59:59.999999"),
                            ts("0001-01-01T00:00:00.000001"),
                            ts("9999-12-31T23:59:59.999999"),
                            ts("1970-01-01T00:00:00.000001"),
                            null),
                    values(
                            ts("1969-12-31T23:59:59.999999999"),
                            ts("1677-09-21T00:12:43.145224192"),
                            ts("2262-04-11T23:47:16.854775807"),
                            ts("1970-01-01T00:00:00.000000001"),
                            ts("1900-06-15T12:00:00.123456789"),
                            null),
                    values(
                            ltz("1969-12-31T23:59:59.999Z"),
                            ltz("2024-01-01T00:00:00.123Z"),
                            ltz("1970-01-01T00:00:00Z"),
                            null),
                    values(
                            ltz("1969-12-31T23:59:59.000001Z"),
                            ltz("2024-01-01T00:00:00.123456Z"),
                            null),
                    values(
                            ltz("1969-12-31T23:59:59.000000001Z"),
                            ltz("2038-01-19T03:14:07.999999999Z"),
                            null),
                    values(Integer.MIN_VALUE, Integer.MAX_VALUE, 0),
                    values("", "required", "x", LONG_STRING),
                    values(
                            MAX_38.movePointLeft(10),
                            MAX_38.movePointLeft(10).negate(),
                            BigDecimal.ZERO.setScale(10)),
                    values(ts("1960-05-05T05:05:05.555555555"), ts("2000-01-01T00:00:00")),
                    List.of()); // uniq

    private AllTypes() {}

    /**
     * {@code count} rows with ids 0, 1, 2...: row k takes edge value k (cyclically) of each column;
     * uniq is a distinct string per row.
     */
    static List<Object[]> rows(int count) {
        List<Object[]> rows = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            Object[] values = new Object[ROW_TYPE.size()];
            values[0] = (long) k;
            for (int c = 1; c < values.length - 1; c++) {
                List<Object> edges = EDGES.get(c);
                values[c] = edges.get(k % edges.size());
            }
            values[values.length - 1] = k % 11 == 0 ? null : "unique-" + k + "-" + (k * 7919L);
            rows.add(values);
        }
        return rows;
    }

    static BinaryRow toRow(RowType type, Object[] values) {
        return BinaryRowWriter.toRow(type, values);
    }

    /** The values of a row as comparable objects (byte arrays as hex). */
    static List<Object> comparable(BinaryRow row, RowType type) {
        List<Object> out = new ArrayList<>(type.size());
        for (int i = 0; i < type.size(); i++) {
            out.add(comparable(row.get(i, type.type(i))));
        }
        return out;
    }

    static List<Object> comparable(Object[] values) {
        return Arrays.stream(values).map(AllTypes::comparable).toList();
    }

    /** The expected values of the given positions of a written row. */
    static List<Object> comparable(Object[] values, int[] positions) {
        return Arrays.stream(positions).mapToObj(p -> comparable(values[p])).toList();
    }

    private static Object comparable(Object value) {
        return value instanceof byte[] bytes ? "0x" + HexFormat.of().formatHex(bytes) : value;
    }

    private static List<Object> values(Object... values) {
        return Collections.unmodifiableList(Arrays.asList(values));
    }

    static Timestamp ts(String localDateTime) {
        return Timestamp.of(LocalDateTime.parse(localDateTime));
    }

    static Timestamp ltz(String instant) {
        return Timestamp.of(Instant.parse(instant));
    }

    private static int millisOfDay(String time) {
        return (int) (LocalTime.parse(time).toNanoOfDay() / 1_000_000);
    }

    private static String longString(int bytes) {
        String unit = "Weir ünïcode 0123456789 ";
        int unitBytes = unit.getBytes(StandardCharsets.UTF_8).length;
        return unit.repeat(bytes / unitBytes);
    }

    static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    static DataType type(String column) {
        return ROW_TYPE.type(ROW_TYPE.indexOf(column));
    }
}
