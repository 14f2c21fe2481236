package io.weir.memory;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
        assertThatThrownBy(() -> pool.release(new byte[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 bytes");
        byte[] page = pool.allocate();
        pool.release(page);
        assertThatThrownBy(() -> pool.release(page))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("released twice");
        assertThat(pool.usedPages()).isZero();
    }

    @Test
    void slabsCostTheirPagesAndAreRecycled() {
        // Slabs of 1,000 bytes cost four 256-byte pages; the budget of 40 pages holds ten.
        MemoryPool pool = new MemoryPool(40 * 256, 256, 1000);
        assertThat(pool.slabBytes()).isEqualTo(1000);
        assertThat(pool.slabPages()).isEqualTo(4);
        Map<byte[], Boolean> seen = new IdentityHashMap<>();
        for (int cycle = 0; cycle < 3; cycle++) {
            List<byte[]> slabs = new ArrayList<>();
            byte[] slab;
            // Two pages held back for the caller: nine slabs, then the rest only for pages.
            while ((slab = pool.allocateSlab(2)) != null) {
                assertThat(slab).hasSize(1000);
                assertThat(seen.containsKey(slab)).isEqualTo(cycle > 0);
                seen.put(slab, true);
                slabs.add(slab);
            }
            assertThat(slabs).hasSize(9);
            assertThat(pool.usedPages()).isEqualTo(36);
            assertThat(pool.freePages()).isEqualTo(4);
            pool.release(slabs);
            assertThat(pool.usedPages()).isZero();
        }
        assertThat(seen).hasSize(9);
        assertThat(pool.allocatedSlabs()).isEqualTo(9);
        assertThat(pool.allocatedPages()).isZero();
    }

    @Test
    void slabsAndPagesKeepWhatTheyHoldWithinBudget() {
        MemoryPool pool = new MemoryPool(40 * 256, 256, 1000);
        Set<byte[]> slabs = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < 10; i++) {
            slabs.add(pool.allocateSlab(0));
        }
        assertThat(slabs).hasSize(10);
        assertThat(pool.allocate()).isNull();
        pool.release(slabs);
        // Pages created anew push out free slabs: ten pages leave room for seven of them.
        List<byte[]> pages = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            pages.add(pool.allocate());
        }
        assertThat(pool.allocatedPages()).isEqualTo(10);
        assertThat(pool.allocatedSlabs()).isEqualTo(10);
        List<byte[]> again = new ArrayList<>();
        byte[] slab;
        while ((slab = pool.allocateSlab(0)) != null) {
            again.add(slab);
        }
        assertThat(again).hasSize(7);
        assertThat(again).allMatch(slabs::contains);
        pool.release(pages);
        pool.release(again);
        // And slabs created anew push out free pages: a large array takes the rest.
        byte[] large = pool.allocateLarge(40 * 256);
        assertThat(large).hasSize(40 * 256);
        assertThat(pool.freePages()).isZero();
        pool.release(large);
        assertThat(slabs.contains(pool.allocateSlab(0))).isFalse();
        assertThat(pool.allocatedSlabs()).isEqualTo(11);
    }

    @Test
    void noSlabsWhenTheBudgetHoldsTooFewOrTheyAreNotLargerThanAPage() {
        assertThat(new MemoryPool(31 * 256, 256, 1000).slabBytes()).isZero();
        assertThat(new MemoryPool(32 * 256, 256, 1000).slabBytes()).isEqualTo(1000);
        assertThat(new MemoryPool(64 * 256, 256, 256).slabBytes()).isZero();
        MemoryPool pages = new MemoryPool(64 * 256, 256);
        assertThat(pages.slabBytes()).isZero();
        assertThat(pages.allocateSlab(0)).isNull();
        assertThat(pages.usedPages()).isZero();
        assertThatThrownBy(() -> new MemoryPool(64 * 256, 256, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("slab size -1");
    }

    @Test
    void writerPoolsUseSlabsOfOneHeapRegionExactlyWhenTheJvmRunsG1() {
        boolean g1 =
                ManagementFactory.getGarbageCollectorMXBeans().stream()
                        .anyMatch(gc -> gc.getName().startsWith("G1 "));
        MemoryPool pool = MemoryPool.forRows(256L << 20, 64 << 10);
        if (!g1) {
            assertThat(pool.slabBytes()).isZero();
            return;
        }
        // G1's regions are powers of two from 1 to 32 MB (512 MB on newer JDKs).
        long region = pool.slabBytes() + HeapRegions.HEADER_SLACK;
        assertThat(pool.slabBytes()).isPositive();
        assertThat(Long.bitCount(region)).isOne();
        assertThat(region).isBetween(1L << 20, 512L << 20);
        assertThat(pool.slabPages()).isEqualTo((int) (region >>> 16));
        // A budget of fewer than eight regions gets pages only.
        assertThat(MemoryPool.forRows(7 * region, 64 << 10).slabBytes()).isZero();
    }
}
