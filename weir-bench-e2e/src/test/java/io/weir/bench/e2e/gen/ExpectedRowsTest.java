package io.weir.bench.e2e.gen;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.util.NumberSequenceIterator;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** A table written from two interleaved ranges of indexes holds one of the candidates per key. */
class ExpectedRowsTest {
    private static final long ROWS = 5_003;

    @Test
    void everyInterleavingOfTheRangesIsAccepted() {
        RowGenerator generator = new RowGenerator(Workload.SCHEMA2, ROWS);
        ExpectedRows expected = new ExpectedRows(generator, ROWS, 2);
        Random random = new Random(42);
        for (int attempt = 0; attempt < 5; attempt++) {
            Map<Long, GenericRowData> table = interleave(generator, random);
            assertThat((long) table.size()).isEqualTo(expected.distinctKeys());
            table.forEach(
                    (key, row) -> {
                        assertThat(expected.contains(key)).isTrue();
                        assertThat(expected.isLatest(key, row::equals)).isTrue();
                    });
        }
    }

    @Test
    void olderVersionsAndUnknownKeysAreRejected() {
        RowGenerator generator = new RowGenerator(Workload.SCHEMA1, ROWS);
        ExpectedRows expected = new ExpectedRows(generator, ROWS, 2);
        // the first row of the first range is stale if its key comes again in that range
        long key = generator.key(0);
        boolean writtenAgain = false;
        for (long i = 1; i < ROWS / 2; i++) {
            writtenAgain |= generator.key(i) == key;
        }
        GenericRowData first = generator.row(0);
        if (writtenAgain) {
            assertThat(expected.isLatest(key, first::equals)).isFalse();
        }
        assertThat(expected.contains(-1)).isFalse();
        assertThat(expected.contains(Workload.keys(ROWS))).isFalse();
    }

    /** Applies the two ranges' rows in order, switching between them at random. */
    private static Map<Long, GenericRowData> interleave(RowGenerator generator, Random random) {
        NumberSequenceIterator[] ranges = new NumberSequenceIterator(0, ROWS - 1).split(2);
        Map<Long, GenericRowData> table = new HashMap<>();
        while (ranges[0].hasNext() || ranges[1].hasNext()) {
            int r = !ranges[0].hasNext() ? 1 : !ranges[1].hasNext() ? 0 : random.nextInt(2);
            int burst = 1 + random.nextInt(50);
            for (int i = 0; i < burst && ranges[r].hasNext(); i++) {
                long index = ranges[r].next();
                table.put(generator.key(index), generator.row(index));
            }
        }
        return table;
    }
}
