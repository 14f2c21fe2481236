package io.weir.expressions;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.types.DataType;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.weir.expressions.Expressions.and;
import static io.weir.expressions.Expressions.equal;
import static io.weir.expressions.Expressions.greaterThan;
import static io.weir.expressions.Expressions.greaterThanOrEqual;
import static io.weir.expressions.Expressions.in;
import static io.weir.expressions.Expressions.isNaN;
import static io.weir.expressions.Expressions.isNull;
import static io.weir.expressions.Expressions.lessThan;
import static io.weir.expressions.Expressions.not;
import static io.weir.expressions.Expressions.notEqual;
import static io.weir.expressions.Expressions.notIn;
import static io.weir.expressions.Expressions.or;
import static io.weir.expressions.Expressions.startsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

class RowEvaluationTest {
    private static final RowType TYPE = TestData.ALL_TYPES;

    /** Every operation on every type, for every pooled value and null, and the negation of each. */
    @Test
    void everyOperationOnEveryTypeAgreesWithTheModel() {
        Random random = new Random(1);
        int checked = 0;
        for (int pos = 0; pos < TYPE.size(); pos++) {
            DataType type = TYPE.type(pos);
            String column = TYPE.field(pos).name();
            List<Object> values = new ArrayList<>(TestData.pool(type));
            values.add(null);
            for (Expression p : predicatesOn(column, type, random)) {
                BoundExpression bound = p.bind(TYPE);
                BoundExpression negated = not(p).bind(TYPE);
                for (Object value : values) {
                    Object[] row = new Object[TYPE.size()];
                    row[pos] = value;
                    BinaryRow binary = BinaryRowWriter.toRow(TYPE, row);
                    String what = p + " on " + show(value) + " (bound: " + bound + ")";
                    assertThat(bound.test(binary)).as(what).isEqualTo(isTrue(p, row));
                    assertThat(negated.test(binary))
                            .as("NOT " + what + " (bound: " + negated + ")")
                            .isEqualTo(isTrue(not(p), row));
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(10_000);
    }

    private static List<Expression> predicatesOn(String column, DataType type, Random random) {
        List<Expression> predicates = new ArrayList<>();
        for (Operation op : Operation.values()) {
            boolean floating =
                    type.root().name().equals("FLOAT") || type.root().name().equals("DOUBLE");
            if ((op == Operation.IS_NAN || op == Operation.NOT_NAN) && !floating) {
                continue;
            }
            boolean startsWith = op == Operation.STARTS_WITH || op == Operation.NOT_STARTS_WITH;
            if (startsWith && !type.root().isCharacterString()) {
                continue;
            }
            if (op.operands() == 0) {
                predicates.add(Expressions.predicate(op, column));
            } else if (op.operands() == 1) {
                for (Object literal : TestData.literalPool(type)) {
                    predicates.add(Expressions.predicate(op, column, literal));
                }
            } else {
                predicates.add(Expressions.predicate(op, column));
                for (int i = 0; i < 6; i++) {
                    Object[] literals = new Object[1 + random.nextInt(4)];
                    for (int k = 0; k < literals.length; k++) {
                        literals[k] = TestData.randomLiteral(type, random);
                    }
                    predicates.add(Expressions.predicate(op, column, literals));
                }
            }
        }
        return predicates;
    }

    @Test
    void randomExpressionsOnRandomRowsAgreeWithTheModel() {
        Random random = new Random(2);
        List<Object[]> rows = new ArrayList<>();
        List<BinaryRow> binaryRows = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Object[] row = new Object[TYPE.size()];
            for (int pos = 0; pos < row.length; pos++) {
                row[pos] = TestData.randomValue(TYPE.type(pos), random, 0.2);
            }
            rows.add(row);
            binaryRows.add(BinaryRowWriter.toRow(TYPE, row));
        }
        int passed = 0;
        for (int i = 0; i < 1_000; i++) {
            Expression e = ExpressionModel.randomExpression(TYPE, random, 3);
            BoundExpression bound = e.bind(TYPE);
            for (int r = 0; r < rows.size(); r++) {
                boolean expected = isTrue(e, rows.get(r));
                if (bound.test(binaryRows.get(r)) != expected) {
                    fail(
                            "%s (bound: %s) on %s should be %s",
                            e, bound, show(rows.get(r)), expected);
                }
                passed += expected ? 1 : 0;
            }
        }
        // both outcomes are common, so the comparison means something
        assertThat(passed).isBetween(20_000, 180_000);
    }

    @Test
    void unknownIsNeitherTrueNorFalse() {
        BinaryRow row = row("i", null, "l", 2L);
        assertThat(test(equal("i", 5), row)).isFalse();
        assertThat(test(not(equal("i", 5)), row)).isFalse();
        assertThat(test(notEqual("i", 5), row)).isFalse();
        assertThat(test(notIn("i", 1, 2), row)).isFalse();
        assertThat(test(or(equal("i", 5), isNull("i")), row)).isTrue();
        // UNKNOWN AND FALSE is FALSE, so its negation is TRUE
        assertThat(test(not(and(equal("i", 5), equal("l", 1L))), row)).isTrue();
        // UNKNOWN OR FALSE is UNKNOWN, and so is its negation
        assertThat(test(not(or(equal("i", 5), equal("l", 1L))), row)).isFalse();
    }

    @Test
    void floatingPointFollowsIeee() {
        BinaryRow nan = row("d", Double.NaN, "f", Float.NaN);
        for (String c : List.of("d", "f")) {
            assertThat(test(equal(c, Double.NaN), nan)).isFalse();
            assertThat(test(notEqual(c, 1.0), nan)).isTrue();
            assertThat(test(lessThan(c, 1.0), nan)).isFalse();
            assertThat(test(greaterThanOrEqual(c, 1.0), nan)).isFalse();
            assertThat(test(not(lessThan(c, 1.0)), nan)).isTrue();
            assertThat(test(not(lessThan(c, Double.NaN)), nan)).isTrue();
            assertThat(test(isNaN(c), nan)).isTrue();
            assertThat(test(in(c, Double.NaN), nan)).isFalse();
            assertThat(test(notIn(c, Double.NaN), nan)).isTrue();
        }
        BinaryRow negativeZero = row("d", -0.0, "f", -0.0f);
        assertThat(test(equal("d", 0.0), negativeZero)).isTrue();
        assertThat(test(in("d", 0.0, 1.0), negativeZero)).isTrue();
        assertThat(test(lessThan("f", 0), negativeZero)).isFalse();
        // FLOAT compares as DOUBLE: 0.1f is not 0.1
        BinaryRow tenth = row("f", 0.1f);
        assertThat(test(equal("f", 0.1), tenth)).isFalse();
        assertThat(test(equal("f", 0.1f), tenth)).isTrue();
        assertThat(test(greaterThan("f", 0.1), tenth)).isTrue();
    }

    @Test
    void stringsCompareByCodePointInPlace() {
        // U+1F600 is above U+E000 by code point, below it by UTF-16 unit
        BinaryRow emoji = row("str", "\uD83D\uDE00", "v", "long enough to be out of line");
        assertThat(test(greaterThan("str", "\uE000"), emoji)).isTrue();
        assertThat(test(startsWith("v", "long e"), emoji)).isTrue();
        assertThat(test(startsWith("v", "long enough to be out of line!"), emoji)).isFalse();
        assertThat(test(startsWith("str", ""), emoji)).isTrue();
        assertThat(test(equal("v", "long enough to be out of line"), emoji)).isTrue();
        assertThat(test(lessThan("v", "long enough to be out of linf"), emoji)).isTrue();
    }

    @Test
    void convenientLiteralFormsCompareAsTheirValues() {
        BinaryRow row = row("l", 5L, "dec", new BigDecimal("1.50"), "date", 19_000);
        assertThat(test(equal("l", 5), row)).isTrue();
        assertThat(test(equal("dec", 1.5), row)).isTrue();
        assertThat(test(equal("dec", "1.5"), row)).isTrue();
        assertThat(test(equal("date", java.time.LocalDate.ofEpochDay(19_000)), row)).isTrue();
        assertThat(test(equal("date", "2022-01-08"), row)).isTrue();
    }

    /** Comparisons of every fixed-size kind and of strings read in place: nothing per row. */
    @Test
    void evaluationDoesNotAllocate() {
        Expression filter =
                and(
                        or(greaterThan("l", 3), lessThan("i", 0), equal("b", true)),
                        or(not(lessThan("d", 0.5)), in("t", 1, 2, 127), notEqual("f", 1)),
                        or(in("str", "a", "abcdefgh", "z"), startsWith("v", "ab")),
                        or(greaterThan("dec", 0), lessThan("ts6", "2020-01-01T00:00:00")),
                        or(notIn("ltz", "2023-01-01T00:00:00Z"), equal("bytes", new byte[] {1})),
                        not(isNull("date")));
        BoundExpression bound = filter.bind(TYPE);
        Random random = new Random(3);
        BinaryRow[] rows = new BinaryRow[64];
        for (int i = 0; i < rows.length; i++) {
            Object[] values = new Object[TYPE.size()];
            for (int pos = 0; pos < values.length; pos++) {
                if (!TYPE.field(pos).name().equals("bigdec")) {
                    values[pos] = TestData.randomValue(TYPE.type(pos), random, 0.1);
                }
            }
            rows[i] = BinaryRowWriter.toRow(TYPE, values);
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        int matches = 0;
        for (int i = 0; i < 200_000; i++) {
            matches += bound.test(rows[i & 63]) ? 1 : 0;
        }
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 1_000_000; i++) {
            matches += bound.test(rows[i & 63]) ? 1 : 0;
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertThat(matches).isPositive();
        assertThat(allocated).as("bytes allocated for a million rows").isLessThan(100_000);
    }

    private static boolean isTrue(Expression e, Object[] row) {
        return Boolean.TRUE.equals(ExpressionModel.eval(e, TYPE, row));
    }

    private static boolean test(Expression e, BinaryRow row) {
        return e.bind(TYPE).test(row);
    }

    /** A row of TYPE with the given columns set and the others null. */
    private static BinaryRow row(Object... namesAndValues) {
        Object[] values = new Object[TYPE.size()];
        for (int i = 0; i < namesAndValues.length; i += 2) {
            values[TYPE.indexOf((String) namesAndValues[i])] = namesAndValues[i + 1];
        }
        return BinaryRowWriter.toRow(TYPE, values);
    }

    private static String show(Object value) {
        return value instanceof Object[] a
                ? Arrays.deepToString(a)
                : Arrays.deepToString(new Object[] {value});
    }
}
