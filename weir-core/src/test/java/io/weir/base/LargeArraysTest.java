package io.weir.base;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LargeArraysTest {
    @BeforeEach
    @AfterEach
    void empty() {
        LargeArrays.clear();
    }

    @Test
    void largeArraysComeInPowersOfTwoAndAreReused() {
        byte[] a = LargeArrays.take(LargeArrays.MIN_SIZE + 1);
        assertThat(a).hasSize(2 * LargeArrays.MIN_SIZE);
        LargeArrays.give(a);
        assertThat(LargeArrays.keptBytes()).isEqualTo(a.length);

        // Another size of the same class gets the same array; a smaller class does not.
        assertThat(LargeArrays.take(LargeArrays.MIN_SIZE)).isNotSameAs(a);
        assertThat(LargeArrays.take(2 * LargeArrays.MIN_SIZE)).isSameAs(a);
        assertThat(LargeArrays.keptBytes()).isZero();
        assertThat(LargeArrays.take(2 * LargeArrays.MIN_SIZE)).isNotSameAs(a);
    }

    @Test
    void smallAndHugeArraysAreNeitherRoundedNorKept() {
        byte[] small = LargeArrays.take(LargeArrays.MIN_SIZE - 1);
        byte[] huge = LargeArrays.take(LargeArrays.MAX_SIZE + 1);
        assertThat(small).hasSize(LargeArrays.MIN_SIZE - 1);
        assertThat(huge).hasSize(LargeArrays.MAX_SIZE + 1);

        LargeArrays.give(small);
        LargeArrays.give(huge);
        LargeArrays.give(new byte[3 * LargeArrays.MIN_SIZE]); // not of a size class

        assertThat(LargeArrays.keptBytes()).isZero();
    }

    @Test
    void atMostTheLimitIsKept() {
        int size = LargeArrays.MAX_SIZE;
        long fits = LargeArrays.MAX_KEPT_BYTES / size;
        byte[][] taken = new byte[(int) fits + 1][];
        for (int i = 0; i < taken.length; i++) {
            taken[i] = LargeArrays.take(size);
        }
        for (byte[] t : taken) {
            LargeArrays.give(t);
        }
        assertThat(LargeArrays.keptBytes()).isEqualTo(fits * size);
    }
}
