package io.weir.data;

import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static io.weir.types.DataTypes.BIGINT;
import static io.weir.types.DataTypes.INT;
import static io.weir.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BinaryRowTest {

    /**
     * The exact bytes Flink's BinaryRowWriter produces on a little-endian machine for (+U, 1L,
     * "abc", "hello world!", null INT): header + null bits (8 bytes), four 8-byte slots, then the
     * 12-byte string padded to 16.
     */
    @Test
    void layoutIsFlinksBinaryRowData() {
        RowType type = RowType.of("a", BIGINT(), "b", STRING(), "c", STRING(), "d", INT());
        BinaryRow row =
                BinaryRowWriter.toRow(type, RowKind.UPDATE_AFTER, 1L, "abc", "hello world!", null);
        String expected =
                "0208000000000000" // kind +U, null bit 8+3 set
                        + "0100000000000000" // a = 1
                        + "6162630000000083" // b inline: "abc", 0x80 | 3
                        + "0c00000028000000" // c: offset 40 << 32 | length 12
                        + "0000000000000000" // d null: zero slot
                        + "68656c6c6f20776f726c642100000000"; // "hello world!" + padding
        assertThat(HexFormat.of().formatHex(row.bytes(), row.offset(), row.sizeInBytes()))
                .isEqualTo(expected);
        assertThat(row.rowKind()).isEqualTo(RowKind.UPDATE_AFTER);
        assertThat(row.isNullAt(3)).isTrue();
        assertThat(row.isNullAt(2)).isFalse();
    }

    @Test
    void nullBitsGrowInEightByteWords() {
        assertThat(BinaryRow.nullBitsSizeInBytes(0)).isEqualTo(8);
        assertThat(BinaryRow.nullBitsSizeInBytes(56)).isEqualTo(8);
        assertThat(BinaryRow.nullBitsSizeInBytes(57)).isEqualTo(16);
        assertThat(BinaryRow.nullBitsSizeInBytes(120)).isEqualTo(16);
        assertThat(BinaryRow.nullBitsSizeInBytes(121)).isEqualTo(24);
    }

    @Test
    void everyTypeRoundTripsIncludingExtremesAndNulls() {
        List<DataType> types = allTypes();
        List<Object[]> rows = new ArrayList<>();
        rows.add(
                new Object[] {
                    true,
                    Byte.MIN_VALUE,
                    Short.MIN_VALUE,
                    Integer.MIN_VALUE,
                    Long.MIN_VALUE,
                    Float.NEGATIVE_INFINITY,
                    Double.NaN,
                    new BigDecimal("-999999999999999999.9999"),
                    new BigDecimal("-99999999999999999999999999999999999999"),
                    new BigDecimal("0.000000000000000001"),
                    "",
                    "",
                    new byte[0],
                    (int) LocalDate.of(-9999, 1, 1).toEpochDay(),
                    0,
                    Timestamp.ofMillis(Long.MIN_VALUE / 2),
                    new Timestamp(-1, 999_999),
                    Timestamp.of(Instant.parse("1969-12-31T23:59:59.123456789Z"))
                });
        rows.add(
                new Object[] {
                    false,
                    Byte.MAX_VALUE,
                    Short.MAX_VALUE,
                    Integer.MAX_VALUE,
                    Long.MAX_VALUE,
                    -0.0f,
                    Double.MAX_VALUE,
                    new BigDecimal("999999999999999999.9999").movePointLeft(0).setScale(4),
                    new BigDecimal("99999999999999999999999999999999999999"),
                    new BigDecimal("-12345678901234567890.123456789012345678"),
                    "1234567",
                    "12345678",
                    new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9},
                    (int) LocalDate.of(9999, 12, 31).toEpochDay(),
                    86_399_999,
                    Timestamp.ofMillis(Long.MAX_VALUE / 2),
                    new Timestamp(253402300799999L, 123_456),
                    new Timestamp(0, 1)
                });
        rows.add(new Object[types.size()]);
        rows.add(
                new Object[] {
                    null,
                    (byte) 0,
                    null,
                    7,
                    null,
                    1.5f,
                    null,
                    BigDecimal.ZERO.setScale(4),
                    null,
                    null,
                    "ünïcødé ✓ — longer than seven bytes",
                    null,
                    "x".repeat(100_000).getBytes(),
                    null,
                    null,
                    null,
                    Timestamp.ofMillis(0),
                    null
                });
        RowType rowType = rowType(types);
        BinaryRowWriter writer = new BinaryRowWriter(types.size());
        for (Object[] values : rows) {
            writer.reset();
            for (int i = 0; i < values.length; i++) {
                writer.write(i, values[i], types.get(i));
            }
            BinaryRow row = writer.complete().copy();
            for (int i = 0; i < values.length; i++) {
                Object actual = row.get(i, types.get(i));
                assertThat(actual)
                        .as("field %d (%s) of %s", i, types.get(i), Arrays.toString(values))
                        .isEqualTo(values[i]);
            }
            assertThat(row.sizeInBytes() % 8).isZero();
            assertThat(row).isEqualTo(BinaryRowWriter.toRow(rowType, values));
        }
    }

    @Test
    void javaTimeValuesAreAccepted() {
        RowType type =
                RowType.of(
                        "d", DataTypes.DATE(),
                        "t", DataTypes.TIME(3),
                        "ts", DataTypes.TIMESTAMP(6),
                        "ltz", DataTypes.TIMESTAMP_LTZ(9));
        BinaryRow row =
                BinaryRowWriter.toRow(
                        type,
                        LocalDate.of(2024, 2, 29),
                        java.time.LocalTime.of(13, 14, 15, 16_000_000),
                        java.time.LocalDateTime.of(2024, 2, 29, 1, 2, 3, 456_789_000),
                        Instant.parse("2024-02-29T01:02:03.123456789Z"));
        assertThat(row.get(0, type.type(0)))
                .isEqualTo((int) LocalDate.of(2024, 2, 29).toEpochDay());
        assertThat(row.get(1, type.type(1))).isEqualTo(((13 * 60 + 14) * 60 + 15) * 1000 + 16);
        assertThat(((Timestamp) row.get(2, type.type(2))).toLocalDateTime())
                .isEqualTo(java.time.LocalDateTime.of(2024, 2, 29, 1, 2, 3, 456_789_000));
        assertThat(((Timestamp) row.get(3, type.type(3))).toInstant())
                .isEqualTo(Instant.parse("2024-02-29T01:02:03.123456789Z"));
    }

    @Test
    void badValuesAreRejectedNamingTheField() {
        RowType type = RowType.of("a", DataTypes.DECIMAL(5, 2), "b", INT());
        assertThatThrownBy(() -> BinaryRowWriter.toRow(type, new BigDecimal("1234.5"), 1))
                .hasMessage("Cannot write 1234.5 to field 0: it does not fit DECIMAL(5, 2)");
        assertThatThrownBy(() -> BinaryRowWriter.toRow(type, BigDecimal.ONE, "x"))
                .hasMessage("Cannot write a String to field 1 of type INT");
        assertThatThrownBy(() -> BinaryRowWriter.toRow(type, BigDecimal.ONE))
                .hasMessageStartingWith("Expected 2 values for ROW<a DECIMAL(5, 2), b INT>, got 1");
    }

    @Test
    void rowKindRoundTripsThroughTheHeaderByte() {
        RowType type = RowType.of("a", BIGINT());
        for (RowKind kind : RowKind.values()) {
            BinaryRow row = BinaryRowWriter.toRow(type, kind, 5L);
            assertThat(row.bytes()[0]).isEqualTo(kind.toByteValue());
            assertThat(row.rowKind()).isEqualTo(kind);
        }
        assertThatThrownBy(() -> RowKind.fromByteValue((byte) 9))
                .hasMessage("Invalid row kind byte: 9");
    }

    @Test
    void viewReadsRowsAtAnOffsetInASharedArray() {
        RowType type = RowType.of("a", BIGINT(), "s", STRING());
        BinaryRow first = BinaryRowWriter.toRow(type, 1L, "first row, long string");
        BinaryRow second = BinaryRowWriter.toRow(type, 2L, "second");
        byte[] page = new byte[first.sizeInBytes() + second.sizeInBytes() + 3];
        first.copyTo(page, 3);
        second.copyTo(page, 3 + first.sizeInBytes());
        BinaryRow view = new BinaryRow(2);
        view.pointTo(page, 3, first.sizeInBytes());
        assertThat(view.getString(1)).isEqualTo("first row, long string");
        view.pointTo(page, 3 + first.sizeInBytes(), second.sizeInBytes());
        assertThat(view.getLong(0)).isEqualTo(2L);
        assertThat(view.getString(1)).isEqualTo("second");
    }

    static List<DataType> allTypes() {
        return List.of(
                DataTypes.BOOLEAN(),
                DataTypes.TINYINT(),
                DataTypes.SMALLINT(),
                DataTypes.INT(),
                DataTypes.BIGINT(),
                DataTypes.FLOAT(),
                DataTypes.DOUBLE(),
                DataTypes.DECIMAL(22, 4),
                DataTypes.DECIMAL(38, 0),
                DataTypes.DECIMAL(38, 18),
                DataTypes.CHAR(7),
                DataTypes.STRING(),
                DataTypes.BYTES(),
                DataTypes.DATE(),
                DataTypes.TIME(3),
                DataTypes.TIMESTAMP(3),
                DataTypes.TIMESTAMP(9),
                DataTypes.TIMESTAMP_LTZ(6));
    }

    static RowType rowType(List<DataType> types) {
        Object[] pairs = new Object[types.size() * 2];
        for (int i = 0; i < types.size(); i++) {
            pairs[2 * i] = "f" + i;
            pairs[2 * i + 1] = types.get(i);
        }
        return RowType.of(pairs);
    }
}
