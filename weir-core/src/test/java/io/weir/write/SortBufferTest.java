package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.memory.MemoryPool;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SortBufferTest {
    private static final RowType TYPE =
            RowType.of("k", DataTypes.BIGINT(), "s", DataTypes.STRING());
    private static final KeyFields KEY = KeyFields.of(TYPE, new int[] {0});
    private static final int PAGE = 256;
    private static final int ENTRIES_PER_PAGE = PAGE / SortIndex.ENTRY_BYTES;

    /** A row of TYPE of exactly {@code size} bytes (a multiple of 8, at least 40). */
    private static BinaryRow row(long key, int size) {
        BinaryRow row = BinaryRowWriter.toRow(TYPE, key, "x".repeat(size - 24));
        assertThat(row.sizeInBytes()).isEqualTo(size);
        return row;
    }

    private static List<Long> keys(SortBuffer buffer) {
        List<Long> keys = new ArrayList<>();
        SortedCursor cursor = buffer.sortedCursor();
        while (cursor.next()) {
            keys.add(cursor.row().getLong(0));
        }
        return keys;
    }

    @Test
    void failedAppendOnAFullPoolChangesNothingAndPagesAreReusedAfterClear() {
        MemoryPool pool = new MemoryPool(16 * PAGE, PAGE);
        SortBuffer buffer = new SortBuffer(pool, TYPE.size(), KEY);
        long firstCycleAllocated = -1;
        for (int cycle = 0; cycle < 200; cycle++) {
            List<Long> appended = new ArrayList<>();
            long k = 1000;
            while (true) {
                int size = buffer.size();
                long memory = buffer.memoryUsed();
                int free = pool.freePages();
                long allocated = pool.allocatedPages();
                if (!buffer.append(cycle % 3, 1, row(k, 40 + 8 * (int) (k % 5)))) {
                    assertThat(buffer.size()).isEqualTo(size);
                    assertThat(buffer.memoryUsed()).isEqualTo(memory);
                    assertThat(pool.freePages()).isEqualTo(free).isLessThanOrEqualTo(1);
                    assertThat(pool.allocatedPages()).isEqualTo(allocated);
                    break;
                }
                appended.add(k);
                k = (k * 7919) % 10007;
            }
            assertThat(buffer.size()).isEqualTo(appended.size()).isGreaterThan(ENTRIES_PER_PAGE);
            assertThat(buffer.memoryUsed()).isEqualTo((long) pool.usedPages() * PAGE);
            appended.sort(null);
            assertThat(keys(buffer)).isEqualTo(appended);

            buffer.clear();
            assertThat(buffer.isEmpty()).isTrue();
            assertThat(buffer.memoryUsed()).isZero();
            assertThat(pool.usedPages()).isZero();
            if (cycle == 0) {
                firstCycleAllocated = pool.allocatedPages();
            }
        }
        assertThat(firstCycleAllocated).isBetween(15L, 16L);
        assertThat(pool.allocatedPages()).isEqualTo(firstCycleAllocated);
    }

    @Test
    void rowsExactlyFillingAPageUseOnePageEach() {
        MemoryPool pool = new MemoryPool(64 * PAGE, PAGE);
        SortBuffer buffer = new SortBuffer(pool, TYPE.size(), KEY);
        for (int i = 0; i < 10; i++) {
            assertThat(buffer.append(0, 0, row(10 - i, PAGE))).isTrue();
        }
        // Two halves fill one page; the next row starts a new one.
        assertThat(buffer.append(0, 0, row(100, PAGE / 2))).isTrue();
        assertThat(buffer.append(0, 0, row(101, PAGE / 2))).isTrue();
        assertThat(buffer.append(0, 0, row(102, 40))).isTrue();
        // 12 data pages; 13 index entries take 2 index pages and 1 scratch page (PackedOrder).
        assertThat(buffer.memoryUsed()).isEqualTo((12 + 2 + 1) * PAGE);
        assertThat(pool.usedPages()).isEqualTo(15);
        assertThat(keys(buffer))
                .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 100L, 101L, 102L);
        SortedCursor cursor = buffer.sortedCursor();
        while (cursor.next()) {
            assertThat(cursor.offset() + cursor.length())
                    .isLessThanOrEqualTo(cursor.bytes().length);
        }
    }

    @Test
    void aRowLargerThanAPageGetsAnArrayOfWholePagesThatLaterRowsShare() {
        MemoryPool pool = new MemoryPool(16 * PAGE, PAGE);
        SortBuffer buffer = new SortBuffer(pool, TYPE.size(), KEY);
        // A data page, an index page and a scratch page.
        assertThat(buffer.append(0, 0, row(5, 48))).isTrue();
        BinaryRow large = row(3, 2 * PAGE + 8); // spans three pages' worth
        assertThat(buffer.append(0, 0, large)).isTrue();
        assertThat(pool.usedPages()).isEqualTo(3 + 3);
        // The rest of the large array (248 bytes) takes the next row, leaving 32 bytes.
        assertThat(buffer.append(0, 0, row(4, PAGE - 40))).isTrue();
        assertThat(pool.usedPages()).isEqualTo(3 + 3);
        assertThat(buffer.append(0, 0, row(1, 40))).isTrue(); // 40 > 32: a new page
        assertThat(pool.usedPages()).isEqualTo(3 + 3 + 1);
        assertThat(buffer.memoryUsed()).isEqualTo(7L * PAGE);

        SortedCursor cursor = buffer.sortedCursor();
        List<Long> keys = new ArrayList<>();
        while (cursor.next()) {
            keys.add(cursor.row().getLong(0));
            if (cursor.row().getLong(0) == 3) {
                assertThat(cursor.row()).isEqualTo(large);
                assertThat(cursor.bytes()).hasSize(3 * PAGE);
            }
        }
        assertThat(keys).containsExactly(1L, 3L, 4L, 5L);

        // Larger than what is left of the pool: false, nothing changed.
        assertThat(buffer.append(0, 0, row(9, 10 * PAGE + 8))).isFalse();
        assertThat(buffer.size()).isEqualTo(4);
        assertThat(pool.usedPages()).isEqualTo(7);

        buffer.clear();
        assertThat(pool.usedPages()).isZero();
        // With the whole pool free, it fits (11 pages of data, 1 of index, 1 of scratch).
        assertThat(buffer.append(0, 0, row(9, 10 * PAGE + 8))).isTrue();
        assertThat(pool.usedPages()).isEqualTo(13);
        buffer.clear();
        assertThat(pool.usedPages()).isZero();
    }

    @Test
    void aRowThatCannotFitEvenAnEmptyPoolIsRejected() {
        // Two pages: a row needs a data page, an index page and a scratch page for the sort.
        MemoryPool tiny = new MemoryPool(2 * PAGE, PAGE);
        SortBuffer buffer = new SortBuffer(tiny, TYPE.size(), KEY);
        assertThatThrownBy(() -> buffer.append(0, 0, row(1, 40)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 3 pages")
                .hasMessageContaining("write-buffer-size");
        assertThat(buffer.isEmpty()).isTrue();
        assertThat(tiny.usedPages()).isZero();

        MemoryPool small = new MemoryPool(5 * PAGE, PAGE);
        SortBuffer other = new SortBuffer(small, TYPE.size(), KEY);
        assertThatThrownBy(() -> other.append(0, 0, row(1, 3 * PAGE + 8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 6 pages");
        assertThat(other.append(0, 0, row(1, 3 * PAGE))).isTrue();
    }

    @Test
    void buffersSharingAPoolReturnFalseWhileTheOtherHoldsThePages() {
        MemoryPool pool = new MemoryPool(8 * PAGE, PAGE);
        SortBuffer first = new SortBuffer(pool, TYPE.size(), KEY);
        SortBuffer second = new SortBuffer(pool, TYPE.size(), null);
        int n = 0;
        while (first.append(0, n % 2, row(n, 128))) {
            n++;
        }
        // 10 rows: 5 data pages (two rows each), 2 index pages (8 entries each), 1 scratch page.
        assertThat(n).isEqualTo(10);
        // Could fit an empty pool, so this is "flush someone", not an error.
        assertThat(second.append(0, 0, row(1, 40))).isFalse();
        first.clear();
        assertThat(second.append(0, 0, row(1, 40))).isTrue();
        assertThat(first.append(0, 0, row(2, 40))).isTrue();
        assertThat(pool.usedPages()).isEqualTo(6);
    }

    @Test
    void appendOnlyKeepsInsertionOrderWithinEachBucket() {
        MemoryPool pool = new MemoryPool(64 * PAGE, PAGE);
        SortBuffer buffer = new SortBuffer(pool, TYPE.size(), null);
        for (int i = 0; i < 100; i++) {
            assertThat(buffer.append(i % 3 == 0 ? 1 : 0, i % 2, row(100 - i, 40))).isTrue();
        }
        SortedCursor cursor = buffer.sortedCursor();
        List<String> seen = new ArrayList<>();
        while (cursor.next()) {
            seen.add(cursor.partitionId() + "/" + cursor.bucket() + "/" + cursor.row().getLong(0));
        }
        List<String> expected = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            for (int b = 0; b < 2; b++) {
                for (int i = 0; i < 100; i++) {
                    if ((i % 3 == 0 ? 1 : 0) == p && i % 2 == b) {
                        expected.add(p + "/" + b + "/" + (100 - i));
                    }
                }
            }
        }
        assertThat(seen).isEqualTo(expected);
    }

    @Test
    void theCursorCanBeTakenAgainAndEqualKeysKeepTheirAppendOrder() {
        MemoryPool pool = new MemoryPool(64 * PAGE, PAGE);
        SortBuffer buffer = new SortBuffer(pool, TYPE.size(), KEY);
        assertThat(buffer.sortedCursor().next()).isFalse();
        for (int i = 0; i < 50; i++) {
            BinaryRow row = BinaryRowWriter.toRow(TYPE, (long) (i % 5), "v" + i);
            assertThat(buffer.append(0, 0, row)).isTrue();
        }
        for (int pass = 0; pass < 2; pass++) {
            SortedCursor cursor = buffer.sortedCursor();
            for (int k = 0; k < 5; k++) {
                for (int i = k; i < 50; i += 5) {
                    assertThat(cursor.next()).isTrue();
                    assertThat(cursor.row().getString(1)).isEqualTo("v" + i);
                }
            }
            assertThat(cursor.next()).isFalse();
            assertThat(cursor.next()).isFalse();
        }
    }

    @Test
    void rejectsNegativePartitionIdsAndBuckets() {
        SortBuffer buffer = new SortBuffer(new MemoryPool(8 * PAGE, PAGE), TYPE.size(), KEY);
        assertThatThrownBy(() -> buffer.append(-1, 0, row(1, 40)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> buffer.append(0, -1, row(1, 40)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(buffer.isEmpty()).isTrue();
    }
}
