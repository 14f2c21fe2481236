package io.weir.write;

import io.weir.memory.MemoryPool;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The index order on entries alone (no key: group, prefix, pointer), through each path of the sort:
 * radix, introsort, heapsort.
 */
class IndexSortTest {
    private static final Comparator<long[]> ORDER =
            Comparator.<long[]>comparingLong(e -> e[0])
                    .thenComparing((a, b) -> Long.compareUnsigned(a[1], b[1]))
                    .thenComparingLong(e -> e[2]);

    private record Fixture(SortIndex index, List<long[]> entries) {}

    /** {@code n} entries: few groups, prefixes from full-range to heavily duplicated. */
    private static Fixture fixture(int n, long seed) {
        return fixture(n, seed, false);
    }

    /**
     * With {@code smallKeys}, the prefixes of keys in {@code [0, n / 4)} (as BIGINT keys
     * normalize), groups of two buckets: the benchmark's shape, whose large ranges take the wide
     * digits.
     */
    private static Fixture fixture(int n, long seed, boolean smallKeys) {
        Random random = new Random(seed);
        MemoryPool pool = new MemoryPool(1L << 24, 1024);
        SortIndex index = new SortIndex(pool, 1, null);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, random);
        List<long[]> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long group =
                    smallKeys
                            ? 2 * random.nextInt(2)
                            : ((long) random.nextInt(3) << 32) | random.nextInt(4);
            long prefix =
                    smallKeys
                            ? random.nextInt(Math.max(1, n / 4)) ^ Long.MIN_VALUE
                            : switch (random.nextInt(4)) {
                                case 0 -> random.nextLong(); // all bytes, negative ones too
                                case 1 -> random.nextInt(1000) ^ Long.MIN_VALUE;
                                case 2 -> (long) random.nextInt(5) << 40;
                                default -> 7L;
                            };
            long pointer = ((long) (order.get(i) / 100) << 32) | (order.get(i) % 100) * 8;
            if (index.room() == 0) {
                index.grow();
            }
            index.add(group, prefix, pointer, 8);
            entries.add(new long[] {group, prefix, pointer});
        }
        entries.sort(ORDER);
        return new Fixture(index, entries);
    }

    /** The MSD sort itself (the index would take PackedOrder where it can). */
    private static void radixSort(Fixture f) {
        new IndexSort(f.index).sort(f.index.size(), true);
    }

    private static void assertSorted(Fixture f) {
        int firstWrong = -1;
        for (int i = 0; i < f.entries.size() && firstWrong < 0; i++) {
            long[] e = f.entries.get(i);
            if (f.index.word(i, 0) != e[0]
                    || f.index.word(i, 8) != e[1]
                    || f.index.word(i, 16) != e[2]
                    || f.index.length(i) != 8) {
                firstWrong = i;
            }
        }
        assertThat(firstWrong).as("first entry out of order").isEqualTo(-1);
        assertThat(f.index.size()).isEqualTo(f.entries.size());
    }

    @Test
    void radixSortOrdersByGroupPrefixAndPointer() {
        for (int n : new int[] {0, 1, 2, 63, 64, 65, 1000, 30_000}) {
            Fixture f = fixture(n, n);
            radixSort(f);
            assertSorted(f);
        }
    }

    @Test
    void wideDigitsOrderLargeIndexesOfSmallKeys() {
        // 11-bit digits over the key's 18 varying bits, then bytes, then the pointer for the
        // duplicated keys (about one in five rows)
        for (int n : new int[] {20_000, 300_000}) {
            Fixture f = fixture(n, n, true);
            radixSort(f);
            assertSorted(f);
        }
    }

    @Test
    void introSortAloneGivesTheSameOrder() {
        Fixture f = fixture(20_000, 7);
        new IndexSort(f.index).introSort(0, 19_999);
        assertSorted(f);
    }

    @Test
    void heapSortAloneGivesTheSameOrder() {
        Fixture f = fixture(5_000, 11);
        new IndexSort(f.index).heapSort(0, 4_999);
        assertSorted(f);
    }

    @Test
    void sortingASortedIndexAgainKeepsIt() {
        Fixture f = fixture(10_000, 3);
        radixSort(f);
        radixSort(f);
        assertSorted(f);
    }
}
