package io.weir.util;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CompressibilityTest {
    @Test
    void compressionMustSaveAnEighth() {
        assertThat(Compressibility.worthStoringCompressed(800, 699)).isTrue();
        assertThat(Compressibility.worthStoringCompressed(800, 700)).isFalse();
        assertThat(Compressibility.worthStoringCompressed(800, 800)).isFalse();
        assertThat(Compressibility.worthStoringCompressed(800, 900)).isFalse();
        // Under 8 bytes an eighth rounds to nothing: any saving counts.
        assertThat(Compressibility.worthStoringCompressed(7, 6)).isTrue();
        // Pages and chunks beyond 2 GiB in total: no overflow.
        assertThat(Compressibility.worthStoringCompressed(8L << 30, 7L << 30)).isFalse();
        assertThat(Compressibility.worthStoringCompressed(8L << 30, (7L << 30) - 1)).isTrue();
    }
}
