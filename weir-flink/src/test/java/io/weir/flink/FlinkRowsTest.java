package io.weir.flink;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.data.Timestamp;
import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Principle 1: Flink's binary rows and Weir's rows are the same bytes. */
class FlinkRowsTest {
    private static final RowType TYPE =
            RowType.of(
                    "b", DataTypes.BOOLEAN(),
                    "t", DataTypes.TINYINT(),
                    "s", DataTypes.SMALLINT(),
                    "i", DataTypes.INT(),
                    "l", DataTypes.BIGINT(),
                    "f", DataTypes.FLOAT(),
                    "d", DataTypes.DOUBLE(),
                    "dec", DataTypes.DECIMAL(10, 2),
                    "bigdec", DataTypes.DECIMAL(30, 5),
                    "str", DataTypes.STRING(),
                    "bin", DataTypes.BYTES(),
                    "date", DataTypes.DATE(),
                    "time", DataTypes.TIME(3),
                    "ts3", DataTypes.TIMESTAMP(3),
                    "ts9", DataTypes.TIMESTAMP(9),
                    "ltz", DataTypes.TIMESTAMP_LTZ(6));

    @Test
    void flinksWriterAndWeirsWriterProduceTheSameBytes() {
        Random random = new Random(5);
        org.apache.flink.table.types.logical.RowType flinkType = FlinkTypes.toFlink(TYPE);
        for (int n = 0; n < 500; n++) {
            Object[] weirValues = new Object[TYPE.size()];
            GenericRowData flinkRow = new GenericRowData(TYPE.size());
            RowKind kind = RowKind.values()[random.nextInt(4)];
            flinkRow.setRowKind(org.apache.flink.types.RowKind.fromByteValue(kind.toByteValue()));
            for (int i = 0; i < TYPE.size(); i++) {
                if (random.nextInt(5) == 0) {
                    continue; // null
                }
                weirValues[i] = randomValue(TYPE.type(i), random);
                flinkRow.setField(i, toFlinkValue(weirValues[i], TYPE.type(i)));
            }
            // A fresh serializer per row: Flink's writer does not clear slots between rows.
            BinaryRowData flinkBinary = new RowDataSerializer(flinkType).toBinaryRow(flinkRow);
            BinaryRow weir = BinaryRowWriter.toRow(TYPE, kind, weirValues);
            assertThat(hex(new FlinkRows.ToWeir(flinkType).convert(flinkBinary)))
                    .as("row %d", n)
                    .isEqualTo(hex(weir));
            // And back: Flink reads Weir's bytes.
            RowData back = FlinkRows.toFlink(weir);
            assertThat(back.getRowKind().toByteValue()).isEqualTo(kind.toByteValue());
            for (int i = 0; i < TYPE.size(); i++) {
                assertThat(back.isNullAt(i)).isEqualTo(weirValues[i] == null);
            }
            if (weirValues[9] != null) {
                assertThat(back.getString(9).toString()).isEqualTo(weirValues[9]);
            }
        }
    }

    @Test
    void genericRowsAreWrittenAsFlinksWriterWritesThem() {
        RowType compact =
                RowType.of(
                        "b", DataTypes.BOOLEAN(),
                        "t", DataTypes.TINYINT(),
                        "s", DataTypes.SMALLINT(),
                        "i", DataTypes.INT(),
                        "l", DataTypes.BIGINT(),
                        "f", DataTypes.FLOAT(),
                        "d", DataTypes.DOUBLE(),
                        "dec", DataTypes.DECIMAL(10, 2),
                        "str", DataTypes.STRING(),
                        "bin", DataTypes.BYTES(),
                        "date", DataTypes.DATE(),
                        "time", DataTypes.TIME(3),
                        "ts3", DataTypes.TIMESTAMP(3),
                        "ltz3", DataTypes.TIMESTAMP_LTZ(3));
        org.apache.flink.table.types.logical.RowType flinkType = FlinkTypes.toFlink(compact);
        assertThat(RowDataWriter.forType(flinkType)).isNotNull();
        // One converter for all rows: its reused buffer must not carry anything over.
        FlinkRows.ToWeir toWeir = new FlinkRows.ToWeir(flinkType);
        Random random = new Random(11);
        for (int n = 0; n < 1000; n++) {
            GenericRowData row = new GenericRowData(compact.size());
            row.setRowKind(org.apache.flink.types.RowKind.values()[random.nextInt(4)]);
            for (int i = 0; i < compact.size(); i++) {
                if (random.nextInt(5) == 0) {
                    continue; // null
                }
                Object value = toFlinkValue(randomValue(compact.type(i), random), compact.type(i));
                if (value instanceof StringData str && random.nextBoolean()) {
                    value = StringData.fromBytes(str.toBytes()); // already in binary form
                }
                row.setField(i, value);
            }
            BinaryRowData expected = new RowDataSerializer(flinkType).toBinaryRow(row);
            BinaryRowData actual = toWeir.binary(row);
            assertThat(hex(toWeir.view(actual)))
                    .as("row %d", n)
                    .isEqualTo(hex(new FlinkRows.ToWeir(flinkType).view(expected)));
            assertThat(actual.getRowKind()).isEqualTo(row.getRowKind());
        }
    }

    @Test
    void rowsWithFineTimestampsOrWideDecimalsUseFlinksWriter() {
        assertThat(RowDataWriter.forType(FlinkTypes.toFlink(TYPE))).isNull();
        org.apache.flink.table.types.logical.RowType flinkType =
                FlinkTypes.toFlink(
                        RowType.of("id", DataTypes.BIGINT(), "ts", DataTypes.TIMESTAMP(9)));
        BinaryRow row =
                new FlinkRows.ToWeir(flinkType)
                        .convert(
                                GenericRowData.of(
                                        3L, TimestampData.fromEpochMillis(1_000L, 999_999)));
        assertThat(row.getLong(0)).isEqualTo(3L);
        assertThat(row.getTimestamp(1, 9)).isEqualTo(new Timestamp(1_000L, 999_999));
    }

    @Test
    void genericRowsAreConverted() {
        org.apache.flink.table.types.logical.RowType flinkType =
                FlinkTypes.toFlink(RowType.of("id", DataTypes.BIGINT(), "s", DataTypes.STRING()));
        FlinkRows.ToWeir toWeir = new FlinkRows.ToWeir(flinkType);
        BinaryRow row =
                toWeir.convert(GenericRowData.of(7L, StringData.fromString("hello, weir!")));
        assertThat(row.getLong(0)).isEqualTo(7L);
        assertThat(row.getString(1)).isEqualTo("hello, weir!");
    }

    @Test
    void typesMapBothWays() {
        for (int i = 0; i < TYPE.size(); i++) {
            DataType t = TYPE.type(i);
            assertThat(FlinkTypes.toWeir(FlinkTypes.toFlink(t), "c")).isEqualTo(t);
            assertThat(FlinkTypes.toWeir(FlinkTypes.toFlink(t.notNull()), "c"))
                    .isEqualTo(t.notNull());
        }
        assertThat(FlinkTypes.toWeir(FlinkTypes.toFlink(TYPE))).isEqualTo(TYPE);
    }

    private static String hex(BinaryRow row) {
        return HexFormat.of()
                .formatHex(row.bytes(), row.offset(), row.offset() + row.sizeInBytes());
    }

    private static Object randomValue(DataType type, Random r) {
        return switch (type.root()) {
            case BOOLEAN -> r.nextBoolean();
            case TINYINT -> (byte) r.nextInt();
            case SMALLINT -> (short) r.nextInt();
            case INT, DATE -> r.nextInt(100_000);
            case TIME -> r.nextInt(86_400_000);
            case BIGINT -> r.nextLong();
            case FLOAT -> r.nextFloat();
            case DOUBLE -> r.nextDouble();
            case DECIMAL -> BigDecimal.valueOf(r.nextLong() % 10_000_000, 2).setScale(type.scale());
            case VARCHAR -> "x".repeat(r.nextInt(20)) + r.nextInt();
            case VARBINARY -> new byte[r.nextInt(12)];
            case TIMESTAMP, TIMESTAMP_LTZ ->
                    type.precision() <= 3
                            ? Timestamp.ofMillis(r.nextLong() % 10_000_000_000L)
                            : new Timestamp(r.nextLong() % 10_000_000_000L, r.nextInt(1_000_000));
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    private static Object toFlinkValue(Object v, DataType type) {
        return switch (type.root()) {
            case DECIMAL ->
                    DecimalData.fromBigDecimal((BigDecimal) v, type.precision(), type.scale());
            case VARCHAR -> StringData.fromString((String) v);
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                Timestamp t = (Timestamp) v;
                yield TimestampData.fromEpochMillis(t.millis(), t.nanoOfMillisecond());
            }
            default -> v;
        };
    }
}
