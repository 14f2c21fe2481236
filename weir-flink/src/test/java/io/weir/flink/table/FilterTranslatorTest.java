package io.weir.flink.table;

import io.weir.expressions.Expression;
import io.weir.expressions.Expressions;
import io.weir.flink.FlinkTypes;
import io.weir.types.RowType;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinition;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.types.DataType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;

import static io.weir.expressions.Expressions.and;
import static io.weir.expressions.Expressions.equal;
import static io.weir.expressions.Expressions.not;
import static io.weir.expressions.Expressions.notNull;
import static io.weir.expressions.Expressions.or;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.AND;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.EQUALS;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.GREATER_THAN;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.IN;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.IS_FALSE;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.IS_NOT_NULL;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.IS_NOT_TRUE;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.IS_NULL;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.IS_TRUE;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.LESS_THAN;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.LIKE;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.NOT;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.NOT_EQUALS;
import static org.apache.flink.table.functions.BuiltInFunctionDefinitions.OR;
import static org.assertj.core.api.Assertions.assertThat;

/** Each supported Flink filter maps to the right Weir expression; the rest are not translated. */
class FilterTranslatorTest {
    private static final org.apache.flink.table.types.logical.RowType FLINK_TYPE =
            (org.apache.flink.table.types.logical.RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("name", DataTypes.STRING()),
                                    DataTypes.FIELD("code", DataTypes.CHAR(3)),
                                    DataTypes.FIELD("flag", DataTypes.BOOLEAN()),
                                    DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)),
                                    DataTypes.FIELD("d", DataTypes.DOUBLE()),
                                    DataTypes.FIELD("day", DataTypes.DATE()),
                                    DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                                    DataTypes.FIELD("lts", DataTypes.TIMESTAMP_LTZ(3)),
                                    DataTypes.FIELD("n", DataTypes.INT()))
                            .getLogicalType();
    private static final RowType TYPE = FlinkTypes.toWeir(FLINK_TYPE);
    private static final DataType BOOL = DataTypes.BOOLEAN();

    private final FilterTranslator translator = new FilterTranslator(TYPE);

    @Test
    void comparisonsOfAColumnAndALiteral() {
        assertThat(tr(call(EQUALS, f("id"), lit(5L)))).contains(equal("id", 5L));
        assertThat(tr(call(NOT_EQUALS, f("name"), lit("a"))))
                .contains(Expressions.notEqual("name", "a"));
        assertThat(tr(call(LESS_THAN, f("n"), lit(3)))).contains(Expressions.lessThan("n", 3));
        assertThat(tr(call(LESS_THAN_OR_EQUAL, f("d"), lit(2.5))))
                .contains(Expressions.lessThanOrEqual("d", 2.5));
        assertThat(tr(call(GREATER_THAN, f("price"), lit(new BigDecimal("9.99")))))
                .contains(Expressions.greaterThan("price", new BigDecimal("9.99")));
        assertThat(tr(call(GREATER_THAN_OR_EQUAL, f("day"), lit(LocalDate.of(2024, 1, 2)))))
                .contains(Expressions.greaterThanOrEqual("day", LocalDate.of(2024, 1, 2)));
        LocalDateTime ts = LocalDateTime.of(2024, 1, 2, 3, 4, 5);
        assertThat(tr(call(EQUALS, f("ts"), lit(ts)))).contains(equal("ts", ts));
        Instant instant = Instant.ofEpochMilli(1_700_000_000_000L);
        assertThat(tr(call(EQUALS, f("lts"), lit(instant)))).contains(equal("lts", instant));
        assertThat(tr(call(EQUALS, f("flag"), lit(true)))).contains(equal("flag", true));
    }

    @Test
    void aLiteralOnTheLeftFlipsTheComparison() {
        assertThat(tr(call(LESS_THAN, lit(5L), f("id"))))
                .contains(Expressions.greaterThan("id", 5L));
        assertThat(tr(call(GREATER_THAN_OR_EQUAL, lit(5L), f("id"))))
                .contains(Expressions.lessThanOrEqual("id", 5L));
        assertThat(tr(call(EQUALS, lit(5L), f("id")))).contains(equal("id", 5L));
    }

    @Test
    void nullTestsInAndLike() {
        assertThat(tr(call(IS_NULL, f("name")))).contains(Expressions.isNull("name"));
        assertThat(tr(call(IS_NOT_NULL, f("code")))).contains(notNull("code"));
        assertThat(tr(call(IN, f("id"), lit(1L), lit(2L), lit(3L))))
                .contains(Expressions.in("id", 1L, 2L, 3L));
        assertThat(tr(call(LIKE, f("name"), lit("ab%"))))
                .contains(Expressions.startsWith("name", "ab"));
        assertThat(tr(call(LIKE, f("name"), lit("%"))))
                .contains(Expressions.startsWith("name", ""));
    }

    @Test
    void booleanTestsAreExactUnderNulls() {
        assertThat(tr(f("flag"))).contains(equal("flag", true));
        assertThat(tr(call(IS_TRUE, f("flag"))))
                .contains(and(notNull("flag"), equal("flag", true)));
        assertThat(tr(call(IS_FALSE, f("flag"))))
                .contains(and(notNull("flag"), equal("flag", false)));
        assertThat(tr(call(IS_NOT_TRUE, f("flag"))))
                .contains(not(and(notNull("flag"), equal("flag", true))));
    }

    @Test
    void logicalConnectives() {
        ResolvedExpression a = call(EQUALS, f("id"), lit(1L));
        ResolvedExpression b = call(GREATER_THAN, f("n"), lit(2));
        ResolvedExpression c = call(IS_NULL, f("name"));
        assertThat(tr(call(AND, a, b, c)))
                .contains(
                        and(
                                and(equal("id", 1L), Expressions.greaterThan("n", 2)),
                                Expressions.isNull("name")));
        assertThat(tr(call(OR, a, b)))
                .contains(or(equal("id", 1L), Expressions.greaterThan("n", 2)));
        assertThat(tr(call(NOT, a))).contains(not(equal("id", 1L)));
        // One untranslatable part makes the whole untranslatable.
        ResolvedExpression bad = call(EQUALS, f("id"), f("n"));
        assertThat(tr(call(OR, a, bad))).isEmpty();
        assertThat(tr(call(AND, a, bad))).isEmpty();
        assertThat(tr(call(NOT, bad))).isEmpty();
    }

    @Test
    void untranslatable() {
        // column vs column, literal vs literal, functions and casts
        assertThat(tr(call(EQUALS, f("id"), f("n")))).isEmpty();
        assertThat(tr(call(EQUALS, lit(1L), lit(1L)))).isEmpty();
        assertThat(tr(call(EQUALS, call(BuiltInFunctionDefinitions.UPPER, f("name")), lit("A"))))
                .isEmpty();
        assertThat(tr(call(EQUALS, call(BuiltInFunctionDefinitions.CAST, f("n")), lit(1L))))
                .isEmpty();
        // null literals: comparisons with NULL are never TRUE, and IN (.., NULL) never FALSE
        assertThat(tr(call(EQUALS, f("id"), nullLit(DataTypes.BIGINT())))).isEmpty();
        assertThat(tr(call(IN, f("id"), lit(1L), nullLit(DataTypes.BIGINT())))).isEmpty();
        // CHAR columns (padding), DECIMAL vs floating point, literals that do not fit
        assertThat(tr(call(EQUALS, f("code"), lit("ab")))).isEmpty();
        assertThat(tr(call(EQUALS, f("price"), lit(1.5)))).isEmpty();
        assertThat(tr(call(EQUALS, f("n"), lit(new BigDecimal("1.5"))))).isEmpty();
        assertThat(tr(call(EQUALS, f("n"), lit(5_000_000_000L)))).isEmpty();
        assertThat(tr(call(EQUALS, f("ts"), lit(Instant.EPOCH)))).isEmpty();
        assertThat(tr(call(EQUALS, f("name"), lit(5L)))).isEmpty();
        // LIKE patterns other than 'prefix%'
        for (String pattern : new String[] {"%a", "a_b%", "a%b%", "ab", "a\\%%"}) {
            assertThat(tr(call(LIKE, f("name"), lit(pattern)))).as(pattern).isEmpty();
        }
        // a non-boolean column as a predicate; an unknown column
        assertThat(tr(f("name"))).isEmpty();
        assertThat(tr(call(IS_NULL, new FieldReferenceExpression("nope", BOOL, 0, 0)))).isEmpty();
    }

    private Optional<Expression> tr(ResolvedExpression e) {
        return translator.translate(e);
    }

    private static FieldReferenceExpression f(String name) {
        int i = FLINK_TYPE.getFieldIndex(name);
        return new FieldReferenceExpression(
                name, DataTypes.of(FLINK_TYPE.getTypeAt(i)).toInternal(), 0, i);
    }

    private static ValueLiteralExpression lit(Object value) {
        return new ValueLiteralExpression(value);
    }

    private static ValueLiteralExpression nullLit(DataType type) {
        return new ValueLiteralExpression(null, type.nullable());
    }

    private static CallExpression call(BuiltInFunctionDefinition fn, ResolvedExpression... args) {
        return CallExpression.permanent(fn, List.of(args), BOOL);
    }
}
