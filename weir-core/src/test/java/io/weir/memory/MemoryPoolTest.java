package io.weir.memory;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemoryPoolTest {

    @Test
    void rejectsPageSizesThatAreNotPowersOfTwoOrTooSmall() {
        assertThatThrownBy(() -> new MemoryPool(1 << 20, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1000");
        assertThatThrownBy(() -> new MemoryPool(1 << 20, 32))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MemoryPool(100, 128))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("budget");
    }

    @Test
    void budgetIsRoundedDownToWholePages() {
        MemoryPool pool = new MemoryPool(10 * 1024 + 1000, 1024);
        assertThat(pool.pageSize()).isEqualTo(1024);
        assertThat(pool.maxPages()).isEqualTo(10);
        assertThat(pool.freePages()).isEqualTo(10);
        assertThat(pool.allocatedPages()).isZero();
    }

    @Test
    void allocatesLazilyUpToTheBudgetThenReturnsNull() {
        MemoryPool pool = new MemoryPool(4 * 256, 256);
        List<byte[]> pages = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            byte[] page = pool.allocate();
            assertThat(page).hasSize(256);
            assertThat(pool.allocatedPages()).isEqualTo(i + 1);
            pages.add(page);
        }
        assertThat(pool.allocate()).isNull();
        assertThat(pool.freePages()).isZero();
        assertThat(pool.usedPages()).isEqualTo(4);

        pool.release(pages);
        assertThat(pool.freePages()).isEqualTo(4);
        assertThat(pool.usedPages()).isZero();
    }

    @Test
    void recyclesReleasedPagesWithoutCreatingNewOnes() {
        MemoryPool pool = new MemoryPool(64 * 128, 128);
        Map<byte[], Boolean> seen = new IdentityHashMap<>();
        for (int cycle = 0; cycle < 50; cycle++) {
            List<byte[]> pages = new ArrayList<>();
            byte[] page;
            while ((page = pool.allocate()) != null) {
                pages.add(page);
                if (cycle == 0) {
                    seen.put(page, true);
                } else {
                    assertThat(seen).containsKey(page);
                }
            }
            assertThat(pages).hasSize(64);
            pool.release(pages);
        }
        assertThat(pool.allocatedPages()).isEqualTo(64);
    }

    @Test
    void largeArraysCountTheirPagesAndAreNotRecycled() {
        MemoryPool pool = new MemoryPool(8 * 256, 256);
        assertThat(pool.pagesFor(0)).isEqualTo(1);
        assertThat(pool.pagesFor(256)).isEqualTo(1);
        assertThat(pool.pagesFor(257)).isEqualTo(2);
        assertThat(pool.pagesFor(Integer.MAX_VALUE)).isEqualTo(1 << 23);

        byte[] small = pool.allocateLarge(100);
        assertThat(small).hasSize(256);
        byte[] large = pool.allocateLarge(600);
        assertThat(large).hasSize(768);
        assertThat(pool.usedPages()).isEqualTo(4);
        assertThat(pool.allocateLarge(5 * 256)).isNull();
        assertThat(pool.usedPages()).isEqualTo(4);

        pool.release(large);
        pool.release(small);
        assertThat(pool.usedPages()).isZero();
        assertThat(pool.allocatedPages()).isEqualTo(1);
    }

    @Test
    void largeArraysEvictFreePagesToStayWithinBudget() {
        MemoryPool pool = new MemoryPool(4 * 256, 256);
        List<byte[]> pages = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pages.add(pool.allocate());
        }
        pool.release(pages);
        // Four free pages are kept; a 3-page array leaves room for one of them only.
        byte[] large = pool.allocateLarge(3 * 256);
        assertThat(large).isNotNull();
        assertThat(pool.freePages()).isEqualTo(1);
        assertThat(pool.allocate()).isNotNull();
        assertThat(pool.allocatedPages()).isEqualTo(4);
        assertThat(pool.allocate()).isNull();
        pool.release(large);
        assertThat(pool.freePages()).isEqualTo(3);
        // The evicted pages are created again when needed.
        pool.allocate();
        pool.allocate();
        pool.allocate();
        assertThat(pool.allocatedPages()).isEqualTo(7);
    }

    @Test
    void rejectsForeignArraysAndReleasesBeyondWhatIsInUse() {
        MemoryPool pool = new MemoryPool(4 * 256, 256);
        assertThatThrownBy(() -> pool.release(new byte[100]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("100 bytes");
        byte[] page = pool.allocate();
        pool.release(page);
        assertThatThrownBy(() -> pool.release(page))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("released twice");
        assertThat(pool.usedPages()).isZero();
    }
}
