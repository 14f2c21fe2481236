package io.weir.base;

import io.weir.data.BinaryRowWriter;
import io.weir.data.Timestamp;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class DictionarySampleTest {
    private static final RowType TYPE =
            RowType.of(
                    "over", DataTypes.STRING(),
                    "at", DataTypes.BIGINT(),
                    "nulls", DataTypes.INT(),
                    "few", DataTypes.DOUBLE());

    @Test
    void plainOnlyWhenMoreThanTheShareOfNonNullValuesIsDistinct() {
        DictionarySample sample = new DictionarySample(TYPE, 1 << 20);
        for (int i = 0; i < 1000; i++) {
            // over: 801 distinct of 1000; at: 800 distinct of 1000; nulls: 1 value, 999 nulls
            String over = "s" + Math.min(i, 800);
            long at = Math.min(i, 799);
            Integer nulls = i == 0 ? 5 : null;
            assertThat(sample.add(BinaryRowWriter.toRow(TYPE, over, at, nulls, i % 3 * 0.5)))
                    .isFalse();
        }
        assertThat(sample.plainColumns()).containsExactly(true, false, false, false);
    }

    @Test
    void tooFewNonNullValuesKeepTheDictionary() {
        DictionarySample sample = new DictionarySample(TYPE, 1 << 20);
        for (int i = 0; i < DictionarySample.MIN_VALUES; i++) {
            // nulls: one value short of the minimum, all distinct
            Integer nulls = i == 0 ? null : i;
            sample.add(BinaryRowWriter.toRow(TYPE, "a" + i, (long) i, nulls, (double) i));
        }
        assertThat(sample.plainColumns()).containsExactly(true, true, false, true);
        assertThat(new DictionarySample(TYPE, 1 << 20).plainColumns())
                .containsExactly(false, false, false, false);
    }

    @Test
    void fullAtMaxRowsOrMaxBytesAndRowsComeBackInOrder() {
        DictionarySample byRows = new DictionarySample(TYPE, 1 << 20);
        for (int i = 1; i < DictionarySample.MAX_ROWS; i++) {
            assertThat(byRows.add(BinaryRowWriter.toRow(TYPE, "x", (long) i, i, 0.0))).isFalse();
        }
        assertThat(byRows.add(BinaryRowWriter.toRow(TYPE, "x", 0L, 0, 0.0))).isTrue();
        io.weir.data.BinaryRow row = new io.weir.data.BinaryRow(TYPE.size());
        assertThat(byRows.pointTo(row, 41).getLong(1)).isEqualTo(42L);

        DictionarySample byBytes = new DictionarySample(TYPE, 1 << 20);
        String wide = "w".repeat(1 << 20);
        int added = 0;
        while (!byBytes.add(BinaryRowWriter.toRow(TYPE, wide, 1L, 1, 1.0))) {
            added++;
        }
        assertThat(added + 1).isEqualTo(4);
        assertThat(byBytes.size()).isGreaterThanOrEqualTo(DictionarySample.MAX_BYTES);
        assertThat(byBytes.pointTo(row, 3).getString(0)).isEqualTo(wide);

        // small pages (a small target file size): at most 16 pages of sample
        DictionarySample bySmallPages = new DictionarySample(TYPE, 1024);
        String kb = "k".repeat(1000);
        int rows = 1;
        while (!bySmallPages.add(BinaryRowWriter.toRow(TYPE, kb, 1L, 1, 1.0))) {
            rows++;
        }
        assertThat(bySmallPages.size()).isBetween(16L * 1024, 17L * 1024);
        assertThat(rows).isEqualTo(bySmallPages.rowCount());
    }

    @Test
    void deltaSizeIsWhatParquetJavaWrites() throws Exception {
        for (int width : new int[] {32, 64}) {
            for (int pattern = 0; pattern < 6; pattern++) {
                for (int count : new int[] {0, 1, 2, 33, 128, 129, 1000, 10_000}) {
                    long[] values = DeltaDecoderTest.values(pattern, count, width, count + pattern);
                    assertThat(DictionarySample.deltaBytes(values, count, width))
                            .as("%d bits, pattern %d, %d values", width, pattern, count)
                            .isEqualTo(DeltaDecoderTest.encode(values, width, 128, 4).length);
                }
            }
        }
    }

    /**
     * Delta encoding for plain integer columns whose deltas save an eighth: keys in order, numbers
     * far below their type's range, times; not random 64-bit or 32-bit values, nor columns left to
     * the dictionary, nor other types.
     */
    @Test
    void deltaForPlainIntegersWhoseDeltasSaveAnEighth() {
        RowType type =
                RowType.of(
                        "key", DataTypes.BIGINT(),
                        "metric", DataTypes.BIGINT(),
                        "random", DataTypes.BIGINT(),
                        "int", DataTypes.INT(),
                        "randomInt", DataTypes.INT(),
                        "few", DataTypes.BIGINT(),
                        "micros", DataTypes.TIMESTAMP(6),
                        "small", DataTypes.DECIMAL(9, 2),
                        "text", DataTypes.STRING(),
                        "real", DataTypes.DOUBLE());
        DictionarySample sample = new DictionarySample(type, 1 << 20);
        Random random = new Random(3);
        for (int i = 0; i < 2000; i++) {
            sample.add(
                    BinaryRowWriter.toRow(
                            type,
                            5L * i,
                            (long) random.nextInt(1_000_000_000),
                            random.nextLong(),
                            i % 7 == 0 ? null : 3 * i,
                            random.nextInt(),
                            (long) (i % 10),
                            Timestamp.ofMillis(1_700_000_000_000L + i),
                            BigDecimal.valueOf(random.nextInt(1_000_000), 2),
                            "t" + i,
                            random.nextDouble()));
        }
        boolean[] plain = sample.plainColumns();
        assertThat(plain)
                .containsExactly(true, true, true, true, true, false, true, true, true, true);
        assertThat(sample.deltaColumns(new RowShredder(type), plain))
                .containsExactly(true, true, false, true, false, false, true, true, false, false);
    }

    @Test
    void deltaForDictionaryIntegersWhoseDeltasTakeNoMoreBytesThanTheDictionary() {
        RowType type =
                RowType.of(
                        "ts", DataTypes.TIMESTAMP(3),
                        "code", DataTypes.BIGINT(),
                        "status", DataTypes.INT(),
                        "level", DataTypes.INT());
        DictionarySample sample = new DictionarySample(type, 1 << 20);
        Random random = new Random(5);
        long[] codes = new long[40];
        for (int i = 0; i < codes.length; i++) {
            codes[i] = random.nextLong();
        }
        for (int i = 0; i < DictionarySample.MAX_ROWS; i++) {
            sample.add(
                    BinaryRowWriter.toRow(
                            type,
                            // ingestion times of ten seconds, in the order of other keys
                            Timestamp.ofMillis(1_700_000_000_000L + random.nextInt(10_000)),
                            codes[random.nextInt(codes.length)], // few values, far apart
                            random.nextInt(8), // few small values
                            i / 1000)); // long runs of one value
        }
        boolean[] plain = sample.plainColumns();
        assertThat(plain).containsExactly(false, false, false, false);
        assertThat(sample.deltaColumns(new RowShredder(type), plain))
                .containsExactly(true, false, false, false);

        long[] times = new long[DictionarySample.MAX_ROWS];
        io.weir.data.BinaryRow row = new io.weir.data.BinaryRow(type.size());
        for (int r = 0; r < times.length; r++) {
            times[r] = sample.pointTo(row, r).getTimestamp(0, 3).millis();
        }
        long delta = DictionarySample.deltaBytes(times, times.length, 64);
        long dictionary = DictionarySample.dictionaryBytes(times, times.length, 64);
        // about 15 bits a value against 13-bit ids and a dictionary page of ~6,300 longs
        assertThat(delta).isBetween(17_000L, 21_000L);
        assertThat(dictionary).isGreaterThan(2 * delta);
    }
}
