package io.weir.write;

import io.weir.memory.MemoryPool;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packed order against a model (a stable sort of the entries by group and unsigned prefix), and
 * where it refuses: when the offsets and the entry number need more than 64 bits.
 */
class PackedOrderTest {
    private static final int PAGE = 1024;

    private record Fixture(SortIndex index, PackedOrder order, List<long[]> entries) {}

    /**
     * {@code n} entries in insertion order (increasing pointers) with the given groups and keys.
     */
    private static Fixture fixture(int n, LongSupplier groups, LongSupplier prefixes) {
        MemoryPool pool = new MemoryPool(1L << 26, PAGE);
        SortIndex index = new SortIndex(pool, 1, null);
        List<long[]> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (index.room() == 0) {
                index.grow();
            }
            long group = groups.getAsLong();
            long prefix = prefixes.getAsLong();
            long pointer = ((long) (i / 100) << 32) | (i % 100) * 8;
            int length = 8 * (1 + i % 3);
            index.add(group, prefix, pointer, length);
            entries.add(new long[] {group, prefix, pointer, length});
        }
        // Scratch of its own, as much as the index's: the test calls sort directly.
        int indexPages = (int) ((n * (long) SortIndex.ENTRY_BYTES + PAGE - 1) / PAGE);
        PackedOrder order = new PackedOrder(PAGE);
        for (int p = 0; p < PackedOrder.pagesFor(Math.max(1, indexPages)); p++) {
            order.addPage(new byte[PAGE]);
        }
        return new Fixture(index, order, entries);
    }

    private static void assertOrdered(Fixture f) {
        List<long[]> expected = new ArrayList<>(f.entries);
        expected.sort(
                Comparator.<long[]>comparingLong(e -> e[0])
                        .thenComparing((a, b) -> Long.compareUnsigned(a[1], b[1])));
        assertThat(f.order.isSorted()).isTrue();
        int firstWrong = -1;
        for (int k = 0; k < expected.size() && firstWrong < 0; k++) {
            long[] e = expected.get(k);
            long value = f.order.value(k);
            if (f.order.group(value) != e[0]
                    || f.order.prefix(value) != e[1]
                    || f.order.pointer(value) != e[2]
                    || f.order.length(value) != e[3]) {
                firstWrong = k;
            }
        }
        assertThat(firstWrong).as("first entry out of order").isEqualTo(-1);
    }

    @Test
    void ordersTheBenchmarkShape() {
        // Two buckets of one writer, keys in [0, n / 4) as BIGINT keys normalize: 1 + 17 bits.
        Random random = new Random(1);
        int n = 300_000;
        Fixture f =
                fixture(
                        n,
                        () -> 2 * random.nextInt(2) + 1,
                        () -> random.nextInt(n / 4) ^ Long.MIN_VALUE);
        assertThat(f.order.sort(f.index, n)).isTrue();
        assertOrdered(f);
    }

    @Test
    void ordersSignedKeysAroundZeroPartitionsAndBuckets() {
        // Normalized prefixes of -50..49 differ in every bit, but their offsets take 7 bits.
        Random random = new Random(2);
        Fixture f =
                fixture(
                        20_000,
                        () -> ((long) (7 + random.nextInt(3)) << 32) | random.nextInt(5),
                        () -> (random.nextInt(100) - 50) ^ Long.MIN_VALUE);
        assertThat(f.order.sort(f.index, 20_000)).isTrue();
        assertOrdered(f);
    }

    @Test
    void equalKeysKeepInsertionOrder() {
        Random random = new Random(3);
        Fixture same = fixture(5_000, () -> 3, () -> 42);
        assertThat(same.order.sort(same.index, 5_000)).isTrue();
        assertOrdered(same);

        Fixture few = fixture(5_000, () -> 3, () -> random.nextInt(3));
        assertThat(few.order.sort(few.index, 5_000)).isTrue();
        assertOrdered(few);
    }

    @Test
    void packsUpTo64BitsAndRefusesMore() {
        // 1,024 entries on 11 pages: 4 bits of page; 8-byte aligned offsets up to 792 and lengths
        // up to 24 take 7 and 2 bits; prefixes spanning 2^51 - 1 take the remaining 51.
        int n = 1024;
        Random random = new Random(4);
        long[] fits = {5, 5 + (1L << 51) - 1};
        Fixture f = fixture(n, () -> 0, () -> fits[random.nextInt(2)]);
        assertThat(f.order.sort(f.index, n)).isTrue();
        assertOrdered(f);

        long[] tooWide = {5, 5 + (1L << 51)};
        Fixture g = fixture(n, () -> 0, () -> tooWide[random.nextInt(2)]);
        assertThat(g.order.sort(g.index, n)).isFalse();
        assertThat(g.order.isSorted()).isFalse();

        Fixture fullRange = fixture(n, () -> 1, random::nextLong);
        assertThat(fullRange.order.sort(fullRange.index, n)).isFalse();
    }
}
