package io.weir.bench.e2e.gen;

import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables written from datagen-like random rows (uniform keys, random hex values) pass; tables that
 * lose keys, duplicate them, or hold values of the wrong shape do not.
 */
class DatagenExpectationTest {
    private static final long ROWS = 50_000;

    @Test
    void expectedKeyCountIsTheOccupancyMean() {
        DatagenExpectation expectation =
                new DatagenExpectation(Workload.SCHEMA2, ROWS, Workload.keys(ROWS));
        double keys = Workload.keys(ROWS);
        double mean = keys * (1 - Math.pow(1 - 1 / keys, ROWS));
        assertThat(expectation.expectedKeys()).isEqualTo(Math.round(mean));
        // about 6 standard deviations of sqrt(10,000 * 0.0065) = 8 keys, plus one
        assertThat(expectation.tolerance()).isBetween(45L, 52L);
    }

    @Test
    void randomTablesOfEverySchemaPass() {
        for (Workload workload : Workload.values()) {
            for (long seed = 0; seed < 10; seed++) {
                DatagenExpectation expectation =
                        new DatagenExpectation(workload, ROWS, Workload.keys(ROWS));
                table(workload, new Random(seed)).values().forEach(expectation::accept);
                assertThat(expectation.verified()).as(workload + " seed " + seed).isTrue();
            }
        }
    }

    @Test
    void lostKeysAreNoticed() {
        Map<Long, Row> table = table(Workload.SCHEMA1, new Random(1));
        // drop one key in a hundred: ~100 keys, twice the tolerance
        table.keySet().removeIf(key -> key % 100 == 7);
        DatagenExpectation expectation =
                new DatagenExpectation(Workload.SCHEMA1, ROWS, Workload.keys(ROWS));
        table.values().forEach(expectation::accept);
        assertThat(expectation.verified()).isFalse();
        assertThat(expectation.duplicateKeys() + expectation.malformedRows()).isZero();
    }

    @Test
    void duplicateAndUnknownKeysAndMalformedValuesAreCounted() {
        Workload workload = Workload.SCHEMA1;
        List<Row> rows = new ArrayList<>(table(workload, new Random(2)).values());
        Row first = rows.get(0);
        rows.add(first); // a key twice
        Row unknown = Row.copy(first);
        unknown.setField(0, Workload.keys(ROWS)); // beyond the key range
        rows.add(unknown);
        Row shortName = Row.copy(rows.get(1));
        shortName.setField(1, ((String) shortName.getField(1)).substring(1));
        rows.set(1, shortName);
        Row metric = Row.copy(rows.get(2));
        metric.setField(5, 1_000_000_000L);
        rows.set(2, metric);
        Row upperCase = Row.copy(rows.get(3));
        upperCase.setField(1, ((String) upperCase.getField(1)).toUpperCase().replace('0', 'A'));
        rows.set(3, upperCase);

        DatagenExpectation expectation =
                new DatagenExpectation(workload, ROWS, Workload.keys(ROWS));
        rows.forEach(expectation::accept);
        assertThat(expectation.duplicateKeys()).isEqualTo(1);
        assertThat(expectation.unknownKeys()).isEqualTo(1);
        assertThat(expectation.malformedRows()).isEqualTo(3);
        assertThat(expectation.verified()).isFalse();
    }

    /** The latest row per key of ROWS rows of uniform random keys, values as datagen makes them. */
    private static Map<Long, Row> table(Workload workload, Random random) {
        long keys = Workload.keys(ROWS);
        int columns = workload.columns().size();
        LocalDateTime now = LocalDateTime.now();
        // only the last version of a key stays: draw the keys first, make only those rows
        Map<Long, Long> lastIndex = new TreeMap<>();
        for (long i = 0; i < ROWS; i++) {
            lastIndex.put((long) (random.nextDouble() * keys), i);
        }
        Map<Long, Row> table = new TreeMap<>();
        for (Map.Entry<Long, Long> last : lastIndex.entrySet()) {
            long key = last.getKey();
            long i = last.getValue();
            Row row = new Row(columns);
            row.setField(0, key);
            if (workload == Workload.SCHEMA1) {
                row.setField(1, hex(random, (int) (key % 32) + 64));
                for (int m = 0; m < Workload.METRICS; m++) {
                    row.setField(2 + m, (long) random.nextInt(1_000_000_000));
                }
                row.setField(2 + Workload.METRICS, now.plusNanos(i * 1_000_000));
            } else {
                for (int s = 1; s <= workload.stringColumns(); s++) {
                    row.setField(s, hex(random, Workload.STRING_LENGTH));
                }
            }
            table.put(key, row);
        }
        return table;
    }

    private static String hex(Random random, int length) {
        char[] s = new char[length];
        long bits = 0;
        for (int i = 0; i < length; i++) {
            if (i % 16 == 0) {
                bits = random.nextLong();
            }
            s[i] = Character.forDigit((int) (bits >>> (4 * (i % 16))) & 15, 16);
        }
        return new String(s);
    }
}
