package io.weir.expressions;

import io.weir.exceptions.ValidationException;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

import static io.weir.expressions.Expressions.and;
import static io.weir.expressions.Expressions.equal;
import static io.weir.expressions.Expressions.greaterThan;
import static io.weir.expressions.Expressions.in;
import static io.weir.expressions.Expressions.isNaN;
import static io.weir.expressions.Expressions.isNull;
import static io.weir.expressions.Expressions.lessThan;
import static io.weir.expressions.Expressions.not;
import static io.weir.expressions.Expressions.notIn;
import static io.weir.expressions.Expressions.or;
import static io.weir.expressions.Expressions.startsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BindingTest {
    private static final RowType TYPE = TestData.ALL_TYPES;

    @Test
    void unknownColumnListsTheColumns() {
        assertBindError(
                equal("nope", 1),
                "Cannot bind filter on column 'nope': no such column (columns: [b, t, s, i, l, f,"
                        + " d, dec, bigdec, c, v, str, bin, bytes, date, time, ts, ts6, ltz])");
    }

    @Test
    void literalsThatDoNotFitTheColumnTypeAreRejected() {
        assertBindError(
                equal("i", "abc"), "Cannot bind filter on column 'i': 'abc' is not a valid INT");
        assertBindError(
                equal("t", 300),
                "Cannot bind filter on column 't': 300 is out of range for TINYINT");
        assertBindError(
                lessThan("i", 1L << 40),
                "Cannot bind filter on column 'i': 1099511627776 is out of range for INT");
        assertBindError(
                equal("l", 2.5), "Cannot bind filter on column 'l': 2.5 is not a valid BIGINT");
        assertBindError(
                equal("i", LocalDate.of(2024, 1, 1)),
                "Cannot bind filter on column 'i': 2024-01-01 (LocalDate) is not a valid INT");
        assertBindError(
                equal("dec", new BigDecimal("1.234")),
                "Cannot bind filter on column 'dec': 1.234 does not fit DECIMAL(10, 2)");
        assertBindError(
                equal("dec", new BigDecimal("123456789.5")),
                "Cannot bind filter on column 'dec': 123456789.5 does not fit DECIMAL(10, 2)");
        assertBindError(
                equal("b", "yes"),
                "Cannot bind filter on column 'b': 'yes' is not a valid BOOLEAN");
        assertBindError(
                equal("str", 5), "Cannot bind filter on column 'str': 5 is not a valid STRING");
        assertBindError(
                equal("bin", "ab"),
                "Cannot bind filter on column 'bin': 'ab' is not a valid BINARY(4)");
        assertBindError(
                in("date", "2024-01-01", "2024-13-01"),
                "Cannot bind filter on column 'date': '2024-13-01' is not a valid DATE");
        assertBindError(
                equal("time", 90_000_000),
                "Cannot bind filter on column 'time': 90000000 is out of range for TIME(3)");
        assertBindError(
                equal("time", LocalTime.of(10, 0, 0, 500)),
                "Cannot bind filter on column 'time': 10:00:00.000000500 has a fraction of a"
                        + " millisecond; TIME(3) values are whole milliseconds");
        assertBindError(
                equal("ts", "yesterday"),
                "Cannot bind filter on column 'ts': 'yesterday' is not a valid TIMESTAMP(3)");
        assertBindError(
                equal("d", "x"), "Cannot bind filter on column 'd': 'x' is not a valid DOUBLE");
        // inside a larger expression, under NOT
        assertBindError(
                and(equal("i", 1), not(or(isNull("s"), equal("s", 40_000)))),
                "Cannot bind filter on column 's': 40000 is out of range for SMALLINT");
    }

    @Test
    void operationsMustSuitTheColumnType() {
        assertBindError(
                isNaN("i"),
                "Cannot bind filter on column 'i': IS NAN needs a FLOAT or DOUBLE column, not INT");
        assertBindError(
                startsWith("bytes", "a"),
                "Cannot bind filter on column 'bytes': STARTS WITH needs a CHAR or VARCHAR column, not"
                        + " BYTES");
    }

    @Test
    void nullLiteralsAndWrongArityAreRejectedWhenCreated() {
        assertThatThrownBy(() -> equal("i", null))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot create filter i = null: use isNull or notNull to test for null");
        assertThatThrownBy(() -> in("i", 1, null))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot create filter i IN null: use isNull or notNull to test for null");
        assertThatThrownBy(() -> Expressions.predicate(Operation.LT, "i"))
                .isInstanceOf(ValidationException.class)
                .hasMessage("Cannot create filter i <: expected 1 literal(s), got 0");
    }

    @Test
    void literalsAreConvertedToTheColumnType() {
        assertBound(equal("l", 5), "l = 5");
        assertBound(equal("t", 5L), "t = 5");
        assertBound(equal("dec", 1.5), "dec = 1.50");
        assertBound(equal("dec", "-3"), "dec = -3.00");
        assertBound(equal("bigdec", 7), "bigdec = 7.00000");
        assertBound(equal("date", LocalDate.of(2024, 1, 1)), "date = 2024-01-01");
        assertBound(equal("date", "2024-01-01"), "date = 2024-01-01");
        assertBound(equal("time", "10:15"), "time = 10:15");
        assertBound(equal("ts", LocalDateTime.of(2024, 1, 1, 10, 0)), "ts = 2024-01-01T10:00");
        assertBound(equal("ts6", "2024-01-01 10:00:00.000001"), "ts6 = 2024-01-01T10:00:00.000001");
        assertBound(
                equal("ltz", Instant.parse("2024-01-01T10:00:00Z")), "ltz = 2024-01-01T10:00:00Z");
        assertBound(equal("f", 0.5f), "f = 0.5");
        assertBound(equal("bin", new byte[] {1, (byte) 0xab}), "bin = X'01AB'");
        assertBound(equal("str", "it's"), "str = 'it''s'");
    }

    @Test
    void notIsPushedDownToThePredicates() {
        assertBound(not(and(equal("i", 1), isNull("s"))), "(i <> 1 OR s IS NOT NULL)");
        assertBound(
                not(or(lessThan("i", 1), startsWith("str", "a"))),
                "(i >= 1 AND str NOT STARTS WITH 'a')");
        assertBound(not(not(greaterThan("i", 1))), "i > 1");
        // NaN is neither < 1 nor >= 1
        assertBound(not(lessThan("d", 1.0)), "(d >= 1.0 OR d IS NAN)");
        assertBound(not(lessThan("d", Double.NaN)), "d IS NOT NULL");
        assertBound(not(in("i", 3, 1, 3)), "i NOT IN (1, 3)");
    }

    @Test
    void inListsAreSortedAndDeduplicatedAndEmptyListsAreConstant() {
        assertBound(in("i", 3, 1, 3L, 2), "i IN (1, 2, 3)");
        assertBound(in("d", 1.0, Double.NaN, -0.0, 0.0), "d IN (0.0, 1.0)");
        assertBound(
                in("str", "b", "\uE000", "\uD83D\uDE00", "a"),
                "str IN ('a', 'b', '\uE000', '\uD83D\uDE00')");
        assertThat(in("i").bind(TYPE).isAlwaysFalse()).isTrue();
        assertThat(not(in("i")).bind(TYPE).isAlwaysTrue()).isTrue();
        assertThat(notIn("i").bind(TYPE).isAlwaysTrue()).isTrue();
        assertThat(and(equal("i", 1), in("s")).bind(TYPE).isAlwaysFalse()).isTrue();
    }

    private static void assertBound(Expression e, String expected) {
        BoundExpression bound = e.bind(TYPE);
        assertThat(bound.toString()).isEqualTo(expected);
        assertThat(bound.expression()).isEqualTo(e);
        assertThat(bound.rowType()).isEqualTo(TYPE);
    }

    private static void assertBindError(Expression e, String message) {
        assertThatThrownBy(() -> e.bind(TYPE))
                .isInstanceOf(ValidationException.class)
                .hasMessage(message);
    }
}
