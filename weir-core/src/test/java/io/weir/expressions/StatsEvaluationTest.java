package io.weir.expressions;

import io.weir.ColumnStats;
import io.weir.data.ValueStrings;
import io.weir.types.DataType;
import io.weir.types.RowType;
import io.weir.types.TypeRoot;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.weir.expressions.Expressions.and;
import static io.weir.expressions.Expressions.equal;
import static io.weir.expressions.Expressions.greaterThan;
import static io.weir.expressions.Expressions.greaterThanOrEqual;
import static io.weir.expressions.Expressions.in;
import static io.weir.expressions.Expressions.isNaN;
import static io.weir.expressions.Expressions.isNull;
import static io.weir.expressions.Expressions.lessThan;
import static io.weir.expressions.Expressions.lessThanOrEqual;
import static io.weir.expressions.Expressions.not;
import static io.weir.expressions.Expressions.notEqual;
import static io.weir.expressions.Expressions.notIn;
import static io.weir.expressions.Expressions.notNull;
import static io.weir.expressions.Expressions.notStartsWith;
import static io.weir.expressions.Expressions.or;
import static io.weir.expressions.Expressions.startsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

class StatsEvaluationTest {
    private static final RowType TYPE = TestData.ALL_TYPES;

    /**
     * Random files (a few rows drawn from a few values per column, so ranges are narrow) with
     * statistics computed here; a file with a row that passes must never be ruled out.
     */
    @Test
    void statisticsNeverRuleOutAFileWithAMatchingRow() {
        Random random = new Random(4);
        int evaluations = 0;
        int pruned = 0;
        for (int file = 0; file < 1_000; file++) {
            List<Object[]> rows = randomRows(random);
            Map<Integer, ColumnStats> stats = stats(rows, random);
            for (int k = 0; k < 40; k++) {
                Expression e =
                        k % 2 == 0
                                ? ExpressionModel.randomPredicate(TYPE, random)
                                : ExpressionModel.randomExpression(TYPE, random, 2);
                boolean mightMatch = e.bind(TYPE).mightMatch(stats, rows.size());
                boolean anyPasses = false;
                for (Object[] row : rows) {
                    anyPasses |= Boolean.TRUE.equals(ExpressionModel.eval(e, TYPE, row));
                }
                if (anyPasses && !mightMatch) {
                    fail(
                            "%s ruled out a file with a matching row; stats %s, rows %s",
                            e, stats, show(rows));
                }
                evaluations++;
                pruned += mightMatch ? 0 : 1;
            }
        }
        assertThat(pruned).as("files pruned").isGreaterThan(evaluations / 5);
    }

    @Test
    void clearCutCases() {
        Map<Integer, ColumnStats> stats = new HashMap<>();
        stats.put(id("i"), new ColumnStats("10", "20", 0));
        stats.put(id("str"), new ColumnStats("b", "d", 2));
        stats.put(id("d"), new ColumnStats("-1.0", "1.0", 0));
        stats.put(id("l"), new ColumnStats(null, null, 10));
        stats.put(id("t"), new ColumnStats("7", "7", 3));
        stats.put(id("s"), new ColumnStats("abc", "def", 0)); // not SMALLINTs: unknown
        stats.put(id("v"), new ColumnStats("abc", "abd", 0));

        assertMightMatch(stats, false, equal("i", 5), equal("i", 25), lessThan("i", 10));
        assertMightMatch(stats, true, equal("i", 10), equal("i", 20), lessThanOrEqual("i", 10));
        assertMightMatch(stats, false, greaterThan("i", 20), in("i", 1, 2, 30), isNull("i"));
        assertMightMatch(
                stats, true, greaterThanOrEqual("i", 20), in("i", 1, 15), notEqual("i", 10));
        assertMightMatch(
                stats, false, not(greaterThan("i", 5)), and(equal("i", 15), equal("i", 9)));
        assertMightMatch(stats, true, or(equal("i", 5), equal("str", "c")), notNull("i"));

        assertMightMatch(stats, false, startsWith("str", "a"), startsWith("str", "dz"));
        assertMightMatch(stats, false, startsWith("str", "e"), lessThan("str", "b"));
        assertMightMatch(
                stats, true, startsWith("str", "d"), startsWith("str", "c"), isNull("str"));
        assertMightMatch(stats, true, startsWith("v", "ab"), startsWith("v", "abd"));
        assertMightMatch(stats, false, notStartsWith("v", "ab"), startsWith("v", "abe"));
        assertMightMatch(stats, true, notStartsWith("v", "abc"), notStartsWith("str", "b"));

        // NaN may hide outside [min, max], and it satisfies <>, NOT IN and IS NAN
        assertMightMatch(stats, false, greaterThan("d", 1.0), lessThan("d", -1.0), equal("d", 2));
        assertMightMatch(stats, true, notEqual("d", 5), notIn("d", 0.0), isNaN("d"));
        assertMightMatch(stats, true, not(greaterThan("d", 1.0)), not(lessThanOrEqual("d", 5)));

        // an all-null column: only IS NULL can hold
        assertMightMatch(stats, false, notNull("l"), equal("l", 1), notEqual("l", 1));
        assertMightMatch(stats, true, isNull("l"));
        // a single value
        assertMightMatch(stats, false, notEqual("t", 7), notIn("t", 1, 7), in("t", 6, 8));
        assertMightMatch(stats, true, notEqual("t", 6), equal("t", 7), isNull("t"));
        // unknown: no entry, unparsable texts
        assertMightMatch(stats, true, equal("b", true), equal("s", 5), lessThan("s", -1000));

        assertThat(equal("i", 15).bind(TYPE).mightMatch(stats, 0)).as("empty file").isFalse();
        assertThat(isNull("i").bind(TYPE).mightMatch(stats, -1)).as("unknown count").isTrue();
    }

    private static void assertMightMatch(
            Map<Integer, ColumnStats> stats, boolean expected, Expression... filters) {
        for (Expression filter : filters) {
            assertThat(filter.bind(TYPE).mightMatch(stats, 10))
                    .as("%s", filter)
                    .isEqualTo(expected);
        }
    }

    private static int id(String column) {
        return TYPE.field(TYPE.indexOf(column)).id();
    }

    private static List<Object[]> randomRows(Random random) {
        List<List<Object>> choices = new ArrayList<>();
        for (int pos = 0; pos < TYPE.size(); pos++) {
            List<Object> values = new ArrayList<>();
            int k = 1 + random.nextInt(3);
            for (int i = 0; i < k; i++) {
                values.add(TestData.randomValue(TYPE.type(pos), random, 0.15));
            }
            choices.add(values);
        }
        List<Object[]> rows = new ArrayList<>();
        int n = 1 + random.nextInt(5);
        for (int r = 0; r < n; r++) {
            Object[] row = new Object[TYPE.size()];
            for (int pos = 0; pos < row.length; pos++) {
                List<Object> values = choices.get(pos);
                row[pos] = values.get(random.nextInt(values.size()));
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * Statistics as a writer might produce them: some columns without statistics, some bounds
     * unknown, and NaN either left out of min/max or ordered last, as writers differ there.
     */
    static Map<Integer, ColumnStats> stats(List<Object[]> rows, Random random) {
        Map<Integer, ColumnStats> stats = new HashMap<>();
        for (int pos = 0; pos < TYPE.size(); pos++) {
            if (random.nextInt(10) == 0) {
                continue;
            }
            DataType type = TYPE.type(pos);
            boolean floating = type.root() == TypeRoot.FLOAT || type.root() == TypeRoot.DOUBLE;
            boolean skipNaN = floating && random.nextBoolean();
            List<Object> values = new ArrayList<>();
            long nulls = 0;
            for (Object[] row : rows) {
                Object v = row[pos];
                if (v == null) {
                    nulls++;
                } else if (!(skipNaN && Double.isNaN(((Number) v).doubleValue()))) {
                    values.add(v);
                }
            }
            Comparator<Object> order =
                    floating
                            ? Comparator.comparingDouble(v -> ((Number) v).doubleValue())
                            : (a, b) -> ExpressionModel.compare(a, b, type);
            Object min = values.stream().min(order).orElse(null);
            Object max = values.stream().max(order).orElse(null);
            String minText = random.nextInt(20) == 0 ? null : ValueStrings.toText(min, type);
            String maxText = random.nextInt(20) == 0 ? null : ValueStrings.toText(max, type);
            stats.put(TYPE.field(pos).id(), new ColumnStats(minText, maxText, nulls));
        }
        return stats;
    }

    static String show(List<Object[]> rows) {
        return rows.stream().map(Arrays::deepToString).toList().toString();
    }
}
