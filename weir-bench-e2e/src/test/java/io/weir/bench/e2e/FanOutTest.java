package io.weir.bench.e2e;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FanOutTest {
    @Test
    void aNumberIsBucketsOfAnUnpartitionedTable() {
        FanOut f = FanOut.parse("1000");
        assertThat(f).isEqualTo(new FanOut(1, 1_000));
        assertThat(f.fileGroups()).isEqualTo(1_000);
        assertThat(f.label()).isEqualTo("1,000");
    }

    @Test
    void partitionsTimesBuckets() {
        FanOut f = FanOut.parse(" 100X100 ");
        assertThat(f).isEqualTo(new FanOut(100, 100));
        assertThat(f.fileGroups()).isEqualTo(10_000);
        assertThat(f.label()).isEqualTo("10,000 (100 × 100)");
        assertThat(FanOut.parse("1x10").label()).isEqualTo("10");
    }
}
