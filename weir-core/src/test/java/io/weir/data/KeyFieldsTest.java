package io.weir.data;

import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;
import io.weir.util.Murmur3;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class KeyFieldsTest {

    /** The hash is specified on canonical bytes (docs/format.md); recompute it independently. */
    @Test
    void hashFollowsTheSpecifiedCanonicalBytes() {
        RowType type =
                RowType.of(
                        "id", DataTypes.BIGINT(),
                        "name", DataTypes.STRING(),
                        "d", DataTypes.INT(),
                        "big", DataTypes.DECIMAL(30, 2),
                        "ts", DataTypes.TIMESTAMP(6));
        BinaryRow row =
                BinaryRowWriter.toRow(
                        type, 42L, "weir", 7, new BigDecimal("-1.50"), new Timestamp(1000, 5));
        KeyFields key = KeyFields.of(type, new int[] {0, 1, 2, 3, 4});

        int h = KeyFields.HASH_SEED;
        h = Murmur3.hashBytes(le(42L), 0, 8, h);
        byte[] weir = "weir".getBytes(StandardCharsets.UTF_8);
        h = Murmur3.hashBytes(weir, 0, weir.length, h);
        h = Murmur3.hashBytes(new byte[] {7, 0, 0, 0}, 0, 4, h);
        byte[] unscaled = new BigDecimal("-1.50").unscaledValue().toByteArray();
        h = Murmur3.hashBytes(unscaled, 0, unscaled.length, h);
        h = Murmur3.hashBytes(le(1000L), 0, 8, h);
        h = Murmur3.hashBytes(new byte[] {5, 0, 0, 0}, 0, 4, h);
        assertThat(key.hash(row)).isEqualTo(h);
        assertThat(key.bucket(row, 7)).isEqualTo((h & Integer.MAX_VALUE) % 7);
    }

    /**
     * Vectors computed independently with the Python reference binding of MurmurHash3 ({@code
     * mmh3.hash(struct.pack('<q', v), 42)}); docs/format.md lists them for other implementations.
     */
    @Test
    void hashVectors() {
        RowType type = RowType.of("id", DataTypes.BIGINT(), "s", DataTypes.STRING());
        KeyFields id = KeyFields.of(type, new int[] {0});
        KeyFields both = KeyFields.of(type, new int[] {0, 1});
        assertThat(id.hash(BinaryRowWriter.toRow(type, 0L, null))).isEqualTo(0x9c67b85d);
        assertThat(id.hash(BinaryRowWriter.toRow(type, 1L, null))).isEqualTo(0x99f0149d);
        assertThat(both.hash(BinaryRowWriter.toRow(type, 1L, "a"))).isEqualTo(0x411c0b4c);
        BinaryRow row = BinaryRowWriter.toRow(type, 12345L, "x");
        assertThat(id.hash(row)).isEqualTo(0x5467c2e0);
        assertThat(id.bucket(row, 4)).isEqualTo(0);
        KeyFields name = KeyFields.of(type, new int[] {1});
        assertThat(name.hash(BinaryRowWriter.toRow(type, 0L, "weir"))).isEqualTo(0x6ca3b345);
    }

    @Test
    void equalValuesHashEqualHoweverTheRowIsLaidOut() {
        RowType wide =
                RowType.of("x", DataTypes.INT(), "s", DataTypes.STRING(), "f", DataTypes.DOUBLE());
        RowType narrow = RowType.of("s", DataTypes.STRING(), "f", DataTypes.DOUBLE());
        KeyFields a = KeyFields.of(wide, new int[] {1, 2});
        KeyFields b = KeyFields.of(narrow, new int[] {0, 1});
        BinaryRow r1 = BinaryRowWriter.toRow(wide, 9, "some longer string value", 0.0);
        BinaryRow r2 = BinaryRowWriter.toRow(narrow, "some longer string value", -0.0);
        assertThat(a.hash(r1)).isEqualTo(b.hash(r2));
    }

    @Test
    void compareAndPrefixAgreeWithAModelOrdering() {
        Random random = new Random(11);
        List<DataType> types =
                List.of(
                        DataTypes.BIGINT(),
                        DataTypes.INT(),
                        DataTypes.SMALLINT(),
                        DataTypes.TINYINT(),
                        DataTypes.STRING(),
                        DataTypes.DECIMAL(30, 3),
                        DataTypes.DECIMAL(10, 3),
                        DataTypes.TIMESTAMP(9),
                        DataTypes.DOUBLE(),
                        DataTypes.BOOLEAN());
        for (DataType t : types) {
            RowType type = RowType.of("k", t.notNull(), "v", DataTypes.INT());
            KeyFields key = KeyFields.of(type, new int[] {0});
            List<BinaryRow> rows = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                rows.add(BinaryRowWriter.toRow(type, randomValue(t, random), i));
            }
            Comparator<BinaryRow> model = (x, y) -> modelCompare(x.get(0, t), y.get(0, t));
            for (BinaryRow x : rows) {
                for (BinaryRow y : rows) {
                    int expected = Integer.signum(model.compare(x, y));
                    assertThat(Integer.signum(key.compare(x, y))).as("%s", t).isEqualTo(expected);
                    int prefix =
                            Long.compareUnsigned(key.normalizedPrefix(x), key.normalizedPrefix(y));
                    if (prefix != 0) {
                        assertThat(Integer.signum(prefix))
                                .as("prefix of %s", t)
                                .isEqualTo(expected);
                    } else if (key.prefixDetermines()) {
                        assertThat(expected).as("determining prefix of %s", t).isZero();
                    }
                }
            }
        }
    }

    @Test
    void stringsOrderByUnsignedBytes() {
        RowType type = RowType.of("k", DataTypes.STRING().notNull());
        KeyFields key = KeyFields.of(type, new int[] {0});
        BinaryRow ascii = BinaryRowWriter.toRow(type, "z");
        BinaryRow accented = BinaryRowWriter.toRow(type, "é");
        BinaryRow prefix = BinaryRowWriter.toRow(type, "abcdefgh");
        BinaryRow longer = BinaryRowWriter.toRow(type, "abcdefgh\u0000");
        assertThat(key.compare(ascii, accented)).isNegative();
        assertThat(key.compare(prefix, longer)).isNegative();
        assertThat(key.normalizedPrefix(prefix)).isEqualTo(key.normalizedPrefix(longer));
        assertThat(key.prefixDetermines()).isFalse();
    }

    @Test
    void theWritersBucketCallChecksNullsOnceAndHashesLikeBucket() {
        Random random = new Random(5);
        // Key fields before and after null-bit 64 (position 56): the mask and the per-field path.
        Object[] names = new Object[2 * 60];
        for (int i = 0; i < 60; i++) {
            names[2 * i] = "f" + i;
            names[2 * i + 1] = i % 3 == 0 ? DataTypes.STRING() : DataTypes.BIGINT();
        }
        RowType type = RowType.of(names);
        for (int[] positions : new int[][] {{0}, {1, 3}, {55}, {2, 57}, {59}}) {
            KeyFields key = KeyFields.of(type, positions);
            for (int n = 0; n < 300; n++) {
                Object[] values = new Object[60];
                for (int i = 0; i < 60; i++) {
                    values[i] =
                            random.nextInt(8) == 0
                                    ? null
                                    : i % 3 == 0 ? randomString(random) : random.nextLong();
                }
                BinaryRow row = BinaryRowWriter.toRow(type, values);
                int firstNull = key.firstNull(row);
                assertThat(key.anyNull(row)).isEqualTo(firstNull >= 0);
                for (int buckets : new int[] {1, 3, 4, 7, 16}) {
                    int b = key.bucketOfNonNullKey(row, buckets);
                    if (firstNull >= 0) {
                        assertThat(b).isEqualTo(-1 - firstNull);
                    } else {
                        assertThat(b).isEqualTo(key.bucket(row, buckets));
                        assertThat(b).isEqualTo((key.hash(row) & Integer.MAX_VALUE) % buckets);
                    }
                }
            }
        }
    }

    @Test
    void longerWordsOfStringKeysAgreeWithTheOrder() {
        Random random = new Random(23);
        RowType type = RowType.of("k", DataTypes.STRING().notNull(), "v", DataTypes.INT());
        KeyFields key = KeyFields.of(type, new int[] {0});
        assertThat(key.hasLongerWords()).isTrue();
        assertThat(KeyFields.of(type, new int[] {1}).hasLongerWords()).isFalse();
        String[] stems = {"", "item-name-", "item-name-0000", "\u00fc-", "a\u0000\u0000"};
        List<BinaryRow> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String s = stems[random.nextInt(stems.length)] + randomString(random);
            rows.add(BinaryRowWriter.toRow(type, s, i));
        }
        for (BinaryRow x : rows) {
            assertThat(key.normalizedWord(x, 0)).isEqualTo(key.normalizedPrefix(x));
            for (BinaryRow y : rows) {
                int expected = Integer.signum(key.compare(x, y));
                int words = 0;
                for (int d = 0; words == 0; d++) {
                    words =
                            Long.compareUnsigned(
                                    key.normalizedWord(x, d), key.normalizedWord(y, d));
                    if (!key.hasWordsAfter(x, d) && !key.hasWordsAfter(y, d)) {
                        break;
                    }
                }
                if (words != 0) {
                    assertThat(Integer.signum(words)).isEqualTo(expected);
                }
            }
        }
    }

    private static Object randomValue(DataType t, Random r) {
        return switch (t.root()) {
            case BIGINT -> r.nextInt(3) == 0 ? (long) r.nextInt(5) - 2 : r.nextLong();
            case INT -> r.nextInt();
            case SMALLINT -> (short) r.nextInt();
            case TINYINT -> (byte) r.nextInt();
            case VARCHAR -> randomString(r);
            case DECIMAL ->
                    BigDecimal.valueOf(r.nextLong() % 10_000_000, 3)
                            .multiply(BigDecimal.valueOf(r.nextInt(3) - 1));
            case TIMESTAMP -> new Timestamp(r.nextInt(2000) - 1000, r.nextInt(3) * 1000);
            case DOUBLE -> r.nextInt(10) == 0 ? -0.0 : r.nextGaussian();
            case BOOLEAN -> r.nextBoolean();
            default -> throw new IllegalArgumentException(t.toString());
        };
    }

    private static String randomString(Random r) {
        int len = r.nextInt(12);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < len; i++) {
            sb.append((char) ('a' + r.nextInt(3)));
        }
        return sb.toString();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int modelCompare(Object a, Object b) {
        if (a instanceof Double x && b instanceof Double y) {
            return Double.compare(x == 0.0 ? 0.0 : x, y == 0.0 ? 0.0 : y);
        }
        if (a instanceof String x && b instanceof String y) {
            return java.util.Arrays.compareUnsigned(
                    x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8));
        }
        return ((Comparable) a).compareTo(b);
    }

    private static byte[] le(long v) {
        byte[] b = new byte[8];
        LittleEndian.putLong(b, 0, v);
        return b;
    }
}
