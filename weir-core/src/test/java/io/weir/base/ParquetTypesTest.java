package io.weir.base;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ParquetTypesTest {

    @Test
    void decimalWidthIsTheSmallestThatHoldsThePrecision() {
        // The Parquet spec's table: the largest precision n bytes of two's complement can hold.
        int[] maxPrecisionOfWidth = {0, 2, 4, 6, 9, 11, 14, 16, 18, 21, 23, 26, 28, 31, 33, 35, 38};
        for (int precision = 1; precision <= 38; precision++) {
            int width = 1;
            while (maxPrecisionOfWidth[width] < precision) {
                width++;
            }
            assertThat(ParquetTypes.decimalByteWidth(precision))
                    .as("precision %d", precision)
                    .isEqualTo(width);
        }
    }
}
