package io.weir.base;

import io.weir.ColumnStats;
import io.weir.Schema;
import io.weir.data.Timestamp;
import io.weir.data.ValueStrings;
import io.weir.io.LocalFileIO;
import io.weir.options.BaseFileCompression;
import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

class BaseFileStatsTest {
    @TempDir Path dir;
    private final LocalFileIO io = new LocalFileIO();

    /** Row group sizes: one row group, and several (stats merged across row groups). */
    @ParameterizedTest
    @ValueSource(longs = {1L << 30, 4 << 20})
    void statisticsAndKeyRangeMatchTheWrittenValues(long rowGroupSize) throws Exception {
        List<Object[]> rows = AllTypes.rows(300);
        BaseFileInfo info =
                write(
                        AllTypes.SCHEMA,
                        rows,
                        new BaseFileWriteOptions(
                                BaseFileCompression.UNCOMPRESSED, rowGroupSize, 1024));
        int rowGroups = BaseFileRoundTripTest.rowGroups(info.path());
        assertThat(rowGroups > 1).isEqualTo(rowGroupSize < (128 << 20));

        Map<Integer, ColumnStats> expected = new HashMap<>();
        RowType type = AllTypes.ROW_TYPE;
        for (int c = 0; c < type.size(); c++) {
            expected.put(type.field(c).id(), expectedStats(rows, c, type.type(c)));
        }
        assertThat(info.columnStats()).isEqualTo(expected);
        assertThat(info.minKey()).containsExactly("0");
        assertThat(info.maxKey()).containsExactly("299");
        // spot checks of the independent computation itself
        assertThat(expected.get(0)).isEqualTo(new ColumnStats("0", "299", 0));
        assertThat(expected.get(6)).isEqualTo(new ColumnStats(null, null, 30)); // FLOAT with NaN
        assertThat(expected.get(15).max()).isEqualTo("é");
    }

    @Test
    void zeroBoundsOfFloatingPointColumnsAreWidened() {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.INT())
                        .column("a", DataTypes.DOUBLE())
                        .column("b", DataTypes.DOUBLE())
                        .column("c", DataTypes.FLOAT())
                        .column("d", DataTypes.FLOAT())
                        .primaryKey("id")
                        .build();
        BaseFileInfo info =
                write(
                        schema,
                        List.of(
                                new Object[] {1, 0.0d, -5.0d, -0.0f, null},
                                new Object[] {2, 2.0d, -0.0d, 1.0f, null},
                                new Object[] {3, 1.0d, -1.0d, Float.POSITIVE_INFINITY, null}),
                        BaseFileWriteOptions.of(BaseFileCompression.UNCOMPRESSED));

        assertThat(info.columnStats())
                .containsEntry(1, new ColumnStats("-0.0", "2.0", 0))
                .containsEntry(2, new ColumnStats("-5.0", "0.0", 0))
                .containsEntry(3, new ColumnStats("-0.0", "Infinity", 0))
                .containsEntry(4, new ColumnStats(null, null, 3));
    }

    @Test
    void longStringAndBinaryBoundsAreTruncated() {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.INT())
                        .column("ascii", DataTypes.STRING())
                        .column("unicode", DataTypes.STRING())
                        .column("maxed", DataTypes.STRING())
                        .column("bytes", DataTypes.BYTES())
                        .column("ff", DataTypes.BYTES())
                        .primaryKey("id")
                        .build();
        String maxChar = new String(Character.toChars(Character.MAX_CODE_POINT));
        byte[] ff = new byte[70];
        Arrays.fill(ff, (byte) 0xFF);
        byte[] ones = new byte[70];
        Arrays.fill(ones, (byte) 1);
        byte[] twoFf = new byte[70];
        Arrays.fill(twoFf, (byte) 0xFF);
        twoFf[0] = 2;
        BaseFileInfo info =
                write(
                        schema,
                        List.of(
                                new Object[] {
                                    1,
                                    "a".repeat(100),
                                    "é".repeat(30) + "€€€",
                                    maxChar.repeat(20),
                                    ones,
                                    ff
                                },
                                new Object[] {
                                    2, "b".repeat(100), "é".repeat(20), maxChar, twoFf, null
                                }),
                        BaseFileWriteOptions.of(BaseFileCompression.SNAPPY));

        assertThat(info.columnStats().get(1))
                .isEqualTo(new ColumnStats("a".repeat(64), "b".repeat(63) + "c", 0));
        // 30 two-byte and one three-byte character fit in 64 bytes; U+20AC + 1 = U+20AD
        assertThat(info.columnStats().get(2))
                .isEqualTo(new ColumnStats("é".repeat(20), "é".repeat(30) + "\u20AD", 0));
        // no upper bound exists for a prefix of U+10FFFF characters: no bounds at all
        assertThat(info.columnStats().get(3)).isEqualTo(new ColumnStats(null, null, 0));
        assertThat(info.columnStats().get(4))
                .isEqualTo(new ColumnStats(base64(ones, 64), base64(new byte[] {3}, 1), 0));
        assertThat(info.columnStats().get(5)).isEqualTo(new ColumnStats(null, null, 1));
    }

    @Test
    void compositeKeyRangeIsTheFirstAndLastRow() {
        Schema schema =
                Schema.builder()
                        .column("region", DataTypes.STRING())
                        .column("day", DataTypes.DATE())
                        .column("id", DataTypes.DECIMAL(20, 2))
                        .column("v", DataTypes.STRING())
                        .primaryKey("region", "day", "id")
                        .build();
        BaseFileInfo info =
                write(
                        schema,
                        List.of(
                                new Object[] {"apac", 19000, new BigDecimal("-5.50"), "x"},
                                new Object[] {"apac", 19001, new BigDecimal("1.00"), null},
                                new Object[] {
                                    "eu", -1, new BigDecimal("123456789012345678.91"), "y"
                                }),
                        BaseFileWriteOptions.of(BaseFileCompression.ZSTD));

        assertThat(info.minKey()).containsExactly("apac", "2022-01-08", "-5.50");
        assertThat(info.maxKey()).containsExactly("eu", "1969-12-31", "123456789012345678.91");
        assertThat(info.columnStats().get(3)).isEqualTo(new ColumnStats("x", "y", 1));
    }

    @Test
    void tableWithoutPrimaryKeyHasNoKeyRange() {
        Schema schema =
                Schema.builder()
                        .column("a", DataTypes.INT())
                        .column("b", DataTypes.STRING())
                        .build();
        BaseFileInfo info =
                write(
                        schema,
                        List.of(
                                new Object[] {3, "c"},
                                new Object[] {1, null},
                                new Object[] {2, "a"}),
                        BaseFileWriteOptions.of(BaseFileCompression.ZSTD));

        assertThat(info.minKey()).isEmpty();
        assertThat(info.maxKey()).isEmpty();
        assertThat(info.columnStats())
                .isEqualTo(
                        Map.of(0, new ColumnStats("1", "3", 0), 1, new ColumnStats("a", "c", 1)));
    }

    @Test
    void emptyFileHasNoBoundsAndNoKeyRange() {
        BaseFileInfo info =
                write(
                        AllTypes.SCHEMA,
                        List.of(),
                        BaseFileWriteOptions.of(BaseFileCompression.ZSTD));

        assertThat(info.recordCount()).isZero();
        assertThat(info.minKey()).isEmpty();
        assertThat(info.maxKey()).isEmpty();
        assertThat(info.columnStats()).hasSize(AllTypes.ROW_TYPE.size());
        assertThat(info.columnStats().values()).containsOnly(new ColumnStats(null, null, 0));
        try (BaseFileReader reader =
                new BaseFileReader(io.newInputFile(info.path()), AllTypes.ROW_TYPE)) {
            assertThat(reader.recordCount()).isZero();
            assertThat(reader.next()).isFalse();
        }
    }

    private BaseFileInfo write(Schema schema, List<Object[]> rows, BaseFileWriteOptions options) {
        BaseFileWriter writer =
                new BaseFileWriter(
                        io.newOutputFile(dir.resolve("base.parquet").toString()), schema, options);
        for (Object[] values : rows) {
            writer.write(AllTypes.toRow(schema.rowType(), values));
        }
        return writer.close();
    }

    private static String base64(byte[] bytes, int length) {
        return java.util.Base64.getEncoder().encodeToString(Arrays.copyOf(bytes, length));
    }

    /**
     * The statistics docs/format.md §5 specifies, computed from the values: null count; min and max
     * in the type's order, none if a floating-point column has NaN, zero bounds widened. (AllTypes
     * holds no string or binary bound longer than 64 bytes; truncation is tested above.)
     */
    private static ColumnStats expectedStats(List<Object[]> rows, int c, DataType type) {
        long nulls = rows.stream().filter(r -> r[c] == null).count();
        List<Object> values = rows.stream().map(r -> r[c]).filter(Objects::nonNull).toList();
        if (values.isEmpty()) {
            return new ColumnStats(null, null, nulls);
        }
        if (values.stream().anyMatch(v -> v instanceof Float f && f.isNaN())
                || values.stream().anyMatch(v -> v instanceof Double d && d.isNaN())) {
            return new ColumnStats(null, null, nulls);
        }
        Comparator<Object> order = order(type);
        Object min = values.stream().min(order).orElseThrow();
        Object max = values.stream().max(order).orElseThrow();
        if (min instanceof Double d && d == 0.0d) {
            min = -0.0d;
        }
        if (max instanceof Double d && d == 0.0d) {
            max = 0.0d;
        }
        if (min instanceof Float f && f == 0.0f) {
            min = -0.0f;
        }
        if (max instanceof Float f && f == 0.0f) {
            max = 0.0f;
        }
        for (Object bound : List.of(min, max)) {
            int length =
                    bound instanceof String s
                            ? s.getBytes(StandardCharsets.UTF_8).length
                            : bound instanceof byte[] b ? b.length : 0;
            assertThat(length).as("test data bound length").isLessThanOrEqualTo(64);
        }
        return new ColumnStats(
                ValueStrings.toText(min, type), ValueStrings.toText(max, type), nulls);
    }

    @SuppressWarnings("unchecked")
    private static Comparator<Object> order(DataType type) {
        return switch (type.root()) {
            case FLOAT -> Comparator.comparing(v -> (Float) v, Float::compare);
            case DOUBLE -> Comparator.comparing(v -> (Double) v, Double::compare);
            case CHAR, VARCHAR ->
                    (a, b) ->
                            Arrays.compareUnsigned(
                                    ((String) a).getBytes(StandardCharsets.UTF_8),
                                    ((String) b).getBytes(StandardCharsets.UTF_8));
            case BINARY, VARBINARY -> (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
            case TIMESTAMP, TIMESTAMP_LTZ -> Comparator.comparing(v -> (Timestamp) v);
            default -> (a, b) -> ((Comparable<Object>) a).compareTo(b);
        };
    }
}
