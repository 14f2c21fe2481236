package io.weir.base;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PageArraysTest {
    private final PageArrays arrays = new PageArrays();

    @Test
    void lentArraysComeBackForLaterPages() {
        arrays.lend(true);
        byte[] first = arrays.take(1000);
        assertThat(first.length).isGreaterThanOrEqualTo(1000);
        byte[] second = arrays.take(1000);
        assertThat(second).isNotSameAs(first);

        arrays.giveBack(first);

        assertThat(arrays.take(1040)).isSameAs(first); // the headroom takes a slightly larger page
        assertThat(arrays.take(1000)).isNotSameAs(first).isNotSameAs(second);
    }

    @Test
    void arraysItDidNotLendAreNotTakenBack() {
        arrays.lend(true);
        byte[] chunkBuffer = new byte[4096];
        arrays.giveBack(chunkBuffer);
        arrays.giveBack(null);

        assertThat(arrays.take(100)).isNotSameAs(chunkBuffer);
    }

    @Test
    void withoutLendingEveryPageGetsItsOwnArray() {
        arrays.lend(false);
        byte[] page = arrays.take(100);
        assertThat(page).hasSize(100);
        arrays.giveBack(page);

        assertThat(arrays.take(100)).isNotSameAs(page);
    }

    @Test
    void aNewRowGroupForgetsArraysLentBefore() {
        arrays.lend(true);
        byte[] held = arrays.take(100);
        arrays.lend(false); // the record reader may keep pointing into pages of this row group
        arrays.giveBack(held);
        arrays.lend(true);

        assertThat(arrays.take(100)).isNotSameAs(held);
    }

    @Test
    void keepsAFewFreeArrays() {
        arrays.lend(true);
        byte[][] taken = new byte[6][];
        for (int i = 0; i < taken.length; i++) {
            taken[i] = arrays.take(1000 * (i + 1));
        }
        for (byte[] array : taken) {
            arrays.giveBack(array);
        }
        // four are kept, the oldest given back dropped: the smallest request gets the third
        assertThat(arrays.take(1000)).isSameAs(taken[2]);
        assertThat(arrays.take(1000)).isSameAs(taken[3]);
    }
}
