package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.data.RowKind;
import io.weir.memory.MemoryPool;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random rows over random partitions, buckets and keys (with many duplicates), appended through
 * several flush cycles on one pool; after each cycle the sorted cursor must yield exactly what an
 * independent model yields: the rows decoded, ordered by a plain stable sort.
 */
class SortBufferModelTest {

    /** A table shape: its row type, key positions (null: append-only) and value generator. */
    enum Shape {
        BIGINT_KEY(
                RowType.of(
                        "id", DataTypes.BIGINT(), "pad", DataTypes.STRING(), "v", DataTypes.INT()),
                new int[] {0}),
        SHORT_STRING_KEY(
                RowType.of(
                        "v",
                        DataTypes.BIGINT(),
                        "k",
                        DataTypes.STRING(),
                        "pad",
                        DataTypes.STRING()),
                new int[] {1}),
        LONG_STRING_KEY(
                RowType.of("k", DataTypes.STRING(), "pad", DataTypes.STRING()), new int[] {0}),
        INT_STRING_KEY(
                RowType.of(
                        "pad",
                        DataTypes.STRING(),
                        "a",
                        DataTypes.INT(),
                        "c",
                        DataTypes.BIGINT(),
                        "b",
                        DataTypes.STRING()),
                new int[] {1, 3}),
        NO_KEY(RowType.of("a", DataTypes.INT(), "pad", DataTypes.STRING()), null),
        // Few partitions and buckets, keys in [-100, 100): the order packs into longs.
        NARROW_BIGINT_KEY(BIGINT_KEY.type, BIGINT_KEY.key, true),
        NARROW_NO_KEY(NO_KEY.type, null, true);

        final RowType type;
        final int[] key;
        final boolean narrow;

        Shape(RowType type, int[] key) {
            this(type, key, false);
        }

        Shape(RowType type, int[] key, boolean narrow) {
            this.type = type;
            this.key = key;
            this.narrow = narrow;
        }
    }

    private static final long[] EXTREME_LONGS = {
        Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Integer.MIN_VALUE, Long.MAX_VALUE
    };
    private static final String[] SHORT_STRINGS = {
        "",
        "a",
        "a\u0000",
        "a\u0000\u0000",
        "ab",
        "b",
        "\u007f",
        "\u00e9",
        "\u00e9a",
        "zzzzzzz",
        "\u0000",
        "abcdefg",
        "\uD83D\uDE00"
    };

    static Stream<Arguments> shapes() {
        List<Arguments> args = new ArrayList<>();
        long seed = 20240601L;
        for (Shape shape : Shape.values()) {
            for (int pageSize : new int[] {256, 4096}) {
                args.add(Arguments.of(shape, pageSize, 0, seed++));
            }
            // Rows in slabs of four pages less a few bytes, as heap-region slabs are, and of 16
            // pages, where many rows of equal keys share a slab.
            args.add(Arguments.of(shape, 256, 4 * 256 - 40, seed++));
            args.add(Arguments.of(shape, 256, 16 * 256 - 40, seed++));
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0}, page {1}, slab {2}, seed {3}")
    @MethodSource("shapes")
    void sortedCursorMatchesTheModelOverSeveralCycles(
            Shape shape, int pageSize, int slabBytes, long seed) {
        Random random = new Random(seed);
        // At least 48 pages, and room for the eight slabs a pool needs to hand any out.
        int slabPages = (slabBytes + pageSize - 1) / pageSize;
        MemoryPool pool =
                new MemoryPool(
                        (long) Math.max(48, 8 * slabPages + 16) * pageSize, pageSize, slabBytes);
        assertThat(pool.slabBytes()).isEqualTo(slabBytes);
        KeyFields key = shape.key == null ? null : KeyFields.of(shape.type, shape.key);
        SortBuffer buffer = new SortBuffer(pool, shape.type.size(), key);
        Function<Random, Object[]> rows = generator(shape, random, pageSize);

        List<Expected> model = new ArrayList<>();
        int flushes = 0;
        for (int n = 0; n < 6000; n++) {
            int partition = shape.narrow ? random.nextInt(3) : pick(random);
            int bucket = shape.narrow ? random.nextInt(4) : pick(random);
            RowKind kind = RowKind.values()[random.nextInt(RowKind.values().length)];
            BinaryRow row = BinaryRowWriter.toRow(shape.type, kind, rows.apply(random));
            if (!buffer.append(partition, bucket, row)) {
                assertThat(buffer.size()).isEqualTo(model.size()).isPositive();
                verify(buffer, model, shape);
                buffer.clear();
                assertThat(pool.usedPages()).isZero();
                model.clear();
                flushes++;
                assertThat(buffer.append(partition, bucket, row)).isTrue();
            }
            model.add(new Expected(partition, bucket, keyOf(shape, row), model.size(), row));
            if (random.nextInt(1500) == 0) {
                // A look at the sorted rows mid-way; appends continue afterwards.
                verify(buffer, model, shape);
            }
        }
        verify(buffer, model, shape);
        buffer.clear();
        assertThat(flushes).isGreaterThan(2);
        assertThat(pool.usedPages()).isZero();
        assertThat(buffer.memoryUsed()).isZero();
        assertThat(buffer.isEmpty()).isTrue();
        assertThat(buffer.sortedCursor().next()).isFalse();
    }

    private static void verify(SortBuffer buffer, List<Expected> model, Shape shape) {
        List<Expected> expected = new ArrayList<>(model);
        expected.sort(modelOrder(shape)); // List.sort is stable: insertion order among equals
        SortedCursor cursor = buffer.sortedCursor();
        for (int i = 0; i < expected.size(); i++) {
            Expected e = expected.get(i);
            assertThat(cursor.next()).as("row %s of %s", i, expected.size()).isTrue();
            assertThat(cursor.partitionId()).as("partition of row %s", i).isEqualTo(e.partition);
            assertThat(cursor.bucket()).as("bucket of row %s", i).isEqualTo(e.bucket);
            BinaryRow row = cursor.row();
            assertThat(row).as("row %s (%s)", i, e.key).isEqualTo(e.row);
            assertThat(row.bytes()).isSameAs(cursor.bytes());
            assertThat(row.offset()).isEqualTo(cursor.offset());
            assertThat(row.sizeInBytes()).isEqualTo(cursor.length());
        }
        assertThat(cursor.next()).isFalse();
        assertThat(buffer.size()).isEqualTo(model.size());
    }

    private static Comparator<Expected> modelOrder(Shape shape) {
        Comparator<Expected> order =
                Comparator.<Expected>comparingInt(e -> e.partition).thenComparingInt(e -> e.bucket);
        if (shape.key != null) {
            order = order.thenComparing((a, b) -> compareKeys(a.key, b.key));
        }
        return order;
    }

    /** Integers by value, strings by code points (which is the order of their UTF-8 bytes). */
    private static int compareKeys(List<Object> a, List<Object> b) {
        for (int i = 0; i < a.size(); i++) {
            Object x = a.get(i);
            Object y = b.get(i);
            int c;
            if (x instanceof String s) {
                c = Arrays.compare(s.codePoints().toArray(), ((String) y).codePoints().toArray());
            } else if (x instanceof Long l) {
                c = Long.compare(l, (Long) y);
            } else {
                c = Integer.compare((Integer) x, (Integer) y);
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static List<Object> keyOf(Shape shape, BinaryRow row) {
        List<Object> key = new ArrayList<>();
        if (shape.key != null) {
            for (int pos : shape.key) {
                key.add(row.get(pos, shape.type.type(pos)));
            }
        }
        return key;
    }

    /** Mostly small ids, sometimes far apart ones. */
    private static int pick(Random random) {
        int r = random.nextInt(100);
        if (r == 0) {
            return Integer.MAX_VALUE;
        } else if (r == 1) {
            return 1 << 20;
        }
        return random.nextInt(4);
    }

    private static Function<Random, Object[]> generator(Shape shape, Random seedRandom, int page) {
        List<String> longKeys = new ArrayList<>();
        String[] stems = {"", "customer-", "customer-0000", "\u00fc-stra\u00dfe-", "\uD83D\uDE00"};
        for (int i = 0; i < 300; i++) {
            longKeys.add(stems[seedRandom.nextInt(stems.length)] + randomText(seedRandom, 8, 30));
        }
        return switch (shape) {
            case BIGINT_KEY -> r -> new Object[] {bigintKey(r), pad(r, page), r.nextInt()};
            case SHORT_STRING_KEY ->
                    r ->
                            new Object[] {
                                r.nextLong(),
                                SHORT_STRINGS[r.nextInt(SHORT_STRINGS.length)],
                                pad(r, page)
                            };
            case LONG_STRING_KEY ->
                    r -> new Object[] {longKeys.get(r.nextInt(longKeys.size())), pad(r, page)};
            case INT_STRING_KEY ->
                    r ->
                            new Object[] {
                                pad(r, page),
                                r.nextInt(7) - 3,
                                r.nextLong(),
                                r.nextBoolean()
                                        ? SHORT_STRINGS[r.nextInt(SHORT_STRINGS.length)]
                                        : longKeys.get(r.nextInt(20))
                            };
            case NO_KEY, NARROW_NO_KEY -> r -> new Object[] {r.nextInt(), pad(r, page)};
            case NARROW_BIGINT_KEY ->
                    r -> new Object[] {r.nextInt(200) - 100L, pad(r, page), r.nextInt()};
        };
    }

    private static long bigintKey(Random r) {
        return r.nextInt(10) == 0
                ? EXTREME_LONGS[r.nextInt(EXTREME_LONGS.length)]
                : r.nextInt(200) - 100;
    }

    /** Row padding: mostly short, sometimes close to a page, rarely larger than a page. */
    private static String pad(Random r, int pageSize) {
        int p = r.nextInt(100);
        int length;
        if (p < 85) {
            length = r.nextInt(40);
        } else if (p < 98) {
            length = pageSize / 2 + r.nextInt(pageSize / 2);
        } else {
            length = pageSize + r.nextInt(2 * pageSize);
        }
        return randomText(r, length, length);
    }

    private static String randomText(Random r, int minLength, int maxLength) {
        int length = minLength + r.nextInt(maxLength - minLength + 1);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            int c = r.nextInt(20);
            sb.append(c < 18 ? (char) ('0' + c % 10) : c == 18 ? '\u00e9' : 'x');
        }
        return sb.toString();
    }

    private record Expected(int partition, int bucket, List<Object> key, int seq, BinaryRow row) {}
}
