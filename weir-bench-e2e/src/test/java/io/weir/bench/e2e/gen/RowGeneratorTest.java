package io.weir.bench.e2e.gen;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.TimestampData;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class RowGeneratorTest {
    @Test
    void rowsAreAFunctionOfTheirIndex() {
        RowGenerator a = new RowGenerator(Workload.SCHEMA1, 10_000);
        RowGenerator b = new RowGenerator(Workload.SCHEMA1, 10_000);
        for (long i = 0; i < 1_000; i++) {
            assertThat(a.row(i)).isEqualTo(b.row(i));
            assertThat(a.key(i)).isEqualTo(a.row(i).getLong(0));
        }
        assertThat(a.row(1)).isNotEqualTo(a.row(2));
    }

    @Test
    void uniqueKeysAreAScatteredPermutationOfTheIndexes() {
        RowGenerator generator = new RowGenerator(Workload.SCHEMA2, 10_007, true);
        Set<Long> keys = new HashSet<>();
        int inOrder = 0;
        for (long i = 0; i < 10_007; i++) {
            long key = generator.key(i);
            assertThat(generator.row(i).getLong(0)).isEqualTo(key);
            keys.add(key);
            if (i > 0 && key == generator.key(i - 1) + 1) {
                inOrder++;
            }
        }
        assertThat(keys).hasSize(10_007).allMatch(k -> k >= 0 && k < 10_007);
        assertThat(inOrder).as("not simply ascending").isLessThan(100);
        assertThat(generator.keys()).isEqualTo(10_007);
    }

    @Test
    void keysAreUniformInAFixedKeySpaceWhenGiven() {
        RowGenerator generator = new RowGenerator(Workload.SCHEMA1, 1_000_000, 1_000, false);
        Set<Long> keys = new HashSet<>();
        for (long i = 0; i < 20_000; i++) {
            keys.add(generator.row(i).getLong(0));
        }
        // 20,000 draws of 1,000 keys: every key drawn (each misses with probability e^-20)
        assertThat(keys).hasSize(1_000);
        assertThat(keys).allSatisfy(k -> assertThat(k).isBetween(0L, 999L));
        assertThat(generator.keys()).isEqualTo(1_000);
    }

    @Test
    void schema1HasBenchmarkShapedValues() {
        RowGenerator generator = new RowGenerator(Workload.SCHEMA1, 100_000);
        Set<Long> keys = new HashSet<>();
        for (long i = 0; i < 20_000; i++) {
            GenericRowData row = generator.row(i);
            assertThat(row.getArity()).isEqualTo(11);
            long key = row.getLong(0);
            keys.add(key);
            assertThat(key).isBetween(0L, 19_999L);
            String name = row.getString(1).toString();
            assertThat(name).hasSize((int) (key % 32) + 64).matches("[0-9a-f]+");
            for (int m = 2; m < 10; m++) {
                assertThat(row.getLong(m)).isBetween(0L, 999_999_999L);
            }
            assertThat(row.getTimestamp(10, 3))
                    .isEqualTo(TimestampData.fromEpochMillis(RowGenerator.BASE_MILLIS + i));
        }
        // 20,000 draws of 20,000 uniform keys: about 1 - 1/e of them distinct
        assertThat(keys.size()).isBetween(12_000, 13_300);
    }

    @Test
    void stringSchemasHaveSixteenHexCharsPerColumn() {
        for (Workload w : new Workload[] {Workload.SCHEMA2, Workload.SCHEMA3, Workload.SCHEMA4}) {
            GenericRowData row = new RowGenerator(w, 1_000).row(7);
            assertThat(row.getArity()).isEqualTo(1 + w.stringColumns());
            assertThat(row.getLong(0)).isBetween(0L, 199L);
            Set<String> values = new HashSet<>();
            for (int c = 1; c <= w.stringColumns(); c++) {
                values.add(row.getString(c).toString());
                assertThat(row.getString(c).toString()).matches("[0-9a-f]{16}");
            }
            assertThat(values).hasSize(w.stringColumns());
        }
    }

    @Test
    void workloadsParseAndDescribeTheirColumns() {
        assertThat(Workload.parse("1")).isEqualTo(Workload.SCHEMA1);
        assertThat(Workload.parse("schema4")).isEqualTo(Workload.SCHEMA4);
        assertThat(Workload.SCHEMA1.columnsDdl())
                .startsWith("item_id BIGINT, item_name STRING, metric1 BIGINT")
                .endsWith("metric8 BIGINT, ts TIMESTAMP(3)");
        assertThat(Workload.SCHEMA3.columns()).hasSize(51).contains("s50 STRING");
        assertThat(Workload.keys(20_000_000)).isEqualTo(4_000_000);
    }
}
