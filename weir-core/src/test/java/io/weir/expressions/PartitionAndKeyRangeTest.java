package io.weir.expressions;

import io.weir.Partition;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.data.ValueStrings;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.weir.expressions.Expressions.and;
import static io.weir.expressions.Expressions.equal;
import static io.weir.expressions.Expressions.greaterThan;
import static io.weir.expressions.Expressions.in;
import static io.weir.expressions.Expressions.isNull;
import static io.weir.expressions.Expressions.lessThan;
import static io.weir.expressions.Expressions.not;
import static io.weir.expressions.Expressions.notNull;
import static io.weir.expressions.Expressions.or;
import static io.weir.expressions.Expressions.startsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

class PartitionAndKeyRangeTest {
    /** Partition keys in another order than the columns, to catch position mix-ups. */
    private static final RowType PARTITIONED =
            TestData.withIds(
                    "dt", DataTypes.DATE(),
                    "id", DataTypes.BIGINT(),
                    "region", DataTypes.STRING(),
                    "price", DataTypes.DOUBLE(),
                    "name", DataTypes.STRING());

    private static final List<String> PARTITION_KEYS = List.of("region", "dt");

    private static final RowType KEYED =
            TestData.withIds(
                    "k1", DataTypes.INT().notNull(),
                    "k2", DataTypes.STRING().notNull(),
                    "k3", DataTypes.BIGINT().notNull(),
                    "v", DataTypes.DOUBLE(),
                    "w", DataTypes.STRING());

    private static final List<String> PRIMARY_KEY = List.of("k1", "k2", "k3");

    @Test
    void partitionPruningIsSoundAndExactOnPartitionColumns() {
        Random random = new Random(5);
        int pruned = 0;
        int evaluations = 0;
        for (int p = 0; p < 300; p++) {
            Object region = TestData.randomValue(DataTypes.STRING(), random, 0.2);
            Object dt = TestData.randomValue(DataTypes.DATE(), random, 0.2);
            Partition partition =
                    Partition.of(
                            ValueStrings.toText(region, DataTypes.STRING()),
                            ValueStrings.toText(dt, DataTypes.DATE()));
            List<Object[]> rows = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                Object[] row = randomRow(PARTITIONED, random);
                row[PARTITIONED.indexOf("region")] = region;
                row[PARTITIONED.indexOf("dt")] = dt;
                rows.add(row);
            }
            Object[] partitionOnly = new Object[PARTITIONED.size()];
            partitionOnly[PARTITIONED.indexOf("region")] = region;
            partitionOnly[PARTITIONED.indexOf("dt")] = dt;
            for (int k = 0; k < 40; k++) {
                Expression e = ExpressionModel.randomExpression(PARTITIONED, random, 2);
                boolean mightMatch =
                        e.bind(PARTITIONED).mightMatchPartition(partition, PARTITION_KEYS);
                if (anyPasses(e, PARTITIONED, rows) && !mightMatch) {
                    fail(
                            "%s ruled out partition %s holding %s",
                            e, partition, StatsEvaluationTest.show(rows));
                }
                if (PARTITION_KEYS.containsAll(e.columns())) {
                    assertThat(mightMatch)
                            .as("%s on partition %s", e, partition)
                            .isEqualTo(anyPasses(e, PARTITIONED, List.<Object[]>of(partitionOnly)));
                }
                evaluations++;
                pruned += mightMatch ? 0 : 1;
            }
        }
        assertThat(pruned).as("partitions pruned").isGreaterThan(evaluations / 10);
    }

    @Test
    void partitionClearCutCases() {
        Partition nl = Partition.of("NL", "2024-03-01");
        Partition none = Partition.of(null, "2024-03-01");
        assertPartition(nl, true, equal("region", "NL"), greaterThan("dt", "2024-02-29"));
        assertPartition(nl, false, equal("region", "DE"), lessThan("dt", "2024-03-01"));
        assertPartition(nl, true, or(equal("region", "DE"), equal("id", 5)), equal("price", 1.0));
        assertPartition(nl, false, and(equal("region", "DE"), equal("id", 5)), isNull("region"));
        assertPartition(nl, true, startsWith("region", "N"), not(in("region", "DE", "FR")));
        assertPartition(
                none, true, isNull("region"), not(and(equal("region", "NL"), isNull("id"))));
        assertPartition(none, false, notNull("region"), not(equal("region", "NL")));
        assertPartition(Partition.UNPARTITIONED, true, equal("region", "NL"));
        // a value that is not a DATE (e.g. written under another type) is unknown
        Partition odd = Partition.of("NL", "not a date");
        assertPartition(odd, true, equal("dt", "2024-03-01"), isNull("dt"));
        assertPartition(odd, false, and(equal("region", "DE"), equal("dt", "2024-03-01")));
        assertThat(
                        Expressions.alwaysFalse()
                                .bind(PARTITIONED)
                                .mightMatchPartition(nl, PARTITION_KEYS))
                .isFalse();
        assertThatThrownBy(
                        () ->
                                equal("region", "NL")
                                        .bind(PARTITIONED)
                                        .mightMatchPartition(Partition.of("NL"), PARTITION_KEYS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Partition [NL] does not match partition keys [region, dt]");
    }

    private static void assertPartition(
            Partition partition, boolean expected, Expression... filters) {
        List<String> keys = partition.values().isEmpty() ? List.of() : PARTITION_KEYS;
        for (Expression filter : filters) {
            assertThat(filter.bind(PARTITIONED).mightMatchPartition(partition, keys))
                    .as("%s on %s", filter, partition)
                    .isEqualTo(expected);
        }
    }

    /** Files of key-sorted rows; the first key column often takes one value per file. */
    @Test
    void keyRangePruningIsSound() {
        Random random = new Random(6);
        KeyFields keys = KeyFields.of(KEYED, new int[] {0, 1, 2});
        int pruned = 0;
        int evaluations = 0;
        for (int file = 0; file < 500; file++) {
            int firstKeys = 1 + random.nextInt(2);
            int secondKeys = 1 + random.nextInt(3);
            List<Object[]> rows = new ArrayList<>();
            for (int r = 0; r < 1 + random.nextInt(4); r++) {
                Object[] row = randomRow(KEYED, random);
                row[0] = 1 + random.nextInt(firstKeys);
                row[1] = secondKeys == 1 ? "abc" : row[1] == null ? "" : row[1];
                row[2] = row[2] == null ? 0L : row[2];
                rows.add(row);
            }
            rows.sort(
                    (a, b) ->
                            keys.compare(
                                    BinaryRowWriter.toRow(KEYED, a),
                                    BinaryRowWriter.toRow(KEYED, b)));
            List<String> minKey = keyTexts(rows.get(0));
            List<String> maxKey = keyTexts(rows.get(rows.size() - 1));
            for (int k = 0; k < 40; k++) {
                Expression e = ExpressionModel.randomExpression(KEYED, random, 2);
                boolean mightMatch = e.bind(KEYED).mightMatchKeyRange(minKey, maxKey, PRIMARY_KEY);
                if (anyPasses(e, KEYED, rows) && !mightMatch) {
                    fail(
                            "%s ruled out key range %s..%s holding %s",
                            e, minKey, maxKey, StatsEvaluationTest.show(rows));
                }
                evaluations++;
                pruned += mightMatch ? 0 : 1;
            }
        }
        assertThat(pruned).as("files pruned").isGreaterThan(evaluations / 10);
    }

    @Test
    void keyRangeBoundsTheFirstColumnAndFurtherOnesWhileTheFirstAreFixed() {
        // first column varies: only it is bounded
        assertKeyRange("1,b,5", "3,a,7", false, equal("k1", 4), lessThan("k1", 1));
        assertKeyRange("1,b,5", "3,a,7", true, equal("k1", 2), equal("k2", "z"), equal("k3", 100));
        // first column fixed: the second is bounded, the third is not
        assertKeyRange(
                "1,b,5", "1,d,7", false, equal("k1", 2), equal("k2", "e"), lessThan("k2", "b"));
        assertKeyRange(
                "1,b,5", "1,d,7", true, equal("k2", "c"), equal("k3", 100), startsWith("k2", "d"));
        // first two fixed: the third is bounded
        assertKeyRange(
                "1,b,5", "1,b,7", false, equal("k3", 8), greaterThan("k3", 7), equal("k2", "c"));
        assertKeyRange("1,b,5", "1,b,7", true, equal("k3", 6), isNull("w"), equal("v", 1.0));
        // primary-key columns are never null
        assertKeyRange("1,b,5", "3,a,7", false, isNull("k1"));
        // no key range: unknown
        assertThat(equal("k1", 4).bind(KEYED).mightMatchKeyRange(List.of(), List.of(), PRIMARY_KEY))
                .isTrue();
    }

    private static void assertKeyRange(
            String min, String max, boolean expected, Expression... filters) {
        for (Expression filter : filters) {
            assertThat(
                            filter.bind(KEYED)
                                    .mightMatchKeyRange(
                                            Arrays.asList(min.split(",")),
                                            Arrays.asList(max.split(",")),
                                            PRIMARY_KEY))
                    .as("%s on %s..%s", filter, min, max)
                    .isEqualTo(expected);
        }
    }

    private static List<String> keyTexts(Object[] row) {
        List<String> texts = new ArrayList<>();
        for (int pos = 0; pos < 3; pos++) {
            texts.add(ValueStrings.toText(row[pos], KEYED.type(pos)));
        }
        return texts;
    }

    private static Object[] randomRow(RowType type, Random random) {
        Object[] row = new Object[type.size()];
        for (int pos = 0; pos < row.length; pos++) {
            row[pos] = TestData.randomValue(type.type(pos), random, 0.2);
        }
        return row;
    }

    private static boolean anyPasses(Expression e, RowType type, List<Object[]> rows) {
        for (Object[] row : rows) {
            if (Boolean.TRUE.equals(ExpressionModel.eval(e, type, row))) {
                return true;
            }
        }
        return false;
    }
}
