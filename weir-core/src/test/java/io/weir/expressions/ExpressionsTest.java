package io.weir.expressions;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.weir.expressions.Expressions.alwaysFalse;
import static io.weir.expressions.Expressions.alwaysTrue;
import static io.weir.expressions.Expressions.and;
import static io.weir.expressions.Expressions.equal;
import static io.weir.expressions.Expressions.greaterThan;
import static io.weir.expressions.Expressions.in;
import static io.weir.expressions.Expressions.isNull;
import static io.weir.expressions.Expressions.lessThanOrEqual;
import static io.weir.expressions.Expressions.not;
import static io.weir.expressions.Expressions.notIn;
import static io.weir.expressions.Expressions.notNull;
import static io.weir.expressions.Expressions.or;
import static io.weir.expressions.Expressions.startsWith;
import static org.assertj.core.api.Assertions.assertThat;

class ExpressionsTest {

    @Test
    void toStringIsReadable() {
        Expression e =
                and(
                        equal("a", 1),
                        or(isNull("b"), not(startsWith("c", "x'y"))),
                        not(and(notNull("d"), in("e", "p", "q"))),
                        notIn("f", new byte[] {0x0f}));
        assertThat(e)
                .hasToString(
                        "(((a = 1 AND (b IS NULL OR NOT (c STARTS WITH 'x''y'))) AND NOT (d IS NOT"
                                + " NULL AND e IN ('p', 'q'))) AND f NOT IN (X'0F'))");
        assertThat(alwaysTrue()).hasToString("true");
        assertThat(lessThanOrEqual("x", 2.5)).hasToString("x <= 2.5");
    }

    @Test
    void expressionsAreValues() {
        byte[] bytes = {1, 2};
        Expression e = equal("a", bytes);
        bytes[0] = 9; // the expression keeps its own copy
        assertThat(e).isEqualTo(equal("a", new byte[] {1, 2}));
        assertThat(e.hashCode()).isEqualTo(equal("a", new byte[] {1, 2}).hashCode());
        assertThat(in("a", 1, 2)).isEqualTo(in("a", List.of(1, 2))).isNotEqualTo(in("a", 2, 1));
        assertThat(and(equal("a", 1), isNull("b"))).isEqualTo(and(equal("a", 1), isNull("b")));
        assertThat(equal("a", 1)).isNotEqualTo(equal("a", 1L)).isNotEqualTo(equal("b", 1));
    }

    @Test
    void constantsAndDoubleNegationFold() {
        Expression x = equal("a", 1);
        assertThat(and(alwaysTrue(), x)).isSameAs(x);
        assertThat(and(x, alwaysFalse())).isSameAs(alwaysFalse());
        assertThat(or(alwaysFalse(), x)).isSameAs(x);
        assertThat(or(x, alwaysTrue())).isSameAs(alwaysTrue());
        assertThat(not(not(x))).isSameAs(x);
        assertThat(not(alwaysTrue())).isSameAs(alwaysFalse());
        assertThat(and(List.of())).isSameAs(alwaysTrue());
    }

    @Test
    void columnsAreListedInOrderOfAppearance() {
        Expression e = or(and(equal("b", 1), isNull("a")), not(greaterThan("b", 2)));
        assertThat(e.columns()).containsExactly("b", "a");
        assertThat(alwaysTrue().columns()).isEmpty();
    }

    @Test
    void conjunctsFlattenAndAndNotOr() {
        Expression a = equal("a", 1);
        Expression b = equal("b", 1);
        Expression c = equal("c", 1);
        assertThat(Conjuncts.of(and(a, not(or(b, c)), alwaysTrue(), not(not(and(b, c))))))
                .containsExactly(a, not(b), not(c), b, c);
        assertThat(Conjuncts.of(or(a, b))).containsExactly(or(a, b));
        assertThat(Conjuncts.of(not(and(a, b)))).containsExactly(not(and(a, b)));
        assertThat(Conjuncts.of(alwaysTrue())).isEmpty();
    }

    @Test
    void splitSeparatesConjunctsOnTheGivenColumns() {
        Expression onKey = equal("k1", 1);
        Expression onKeys = or(equal("k1", 2), greaterThan("k2", 5));
        Expression mixed = or(equal("k1", 3), isNull("v"));
        Expression other = isNull("w");
        Conjuncts.Split split =
                Conjuncts.split(and(onKey, mixed, onKeys, other), Set.of("k1", "k2"));
        assertThat(split.onColumns()).isEqualTo(and(onKey, onKeys));
        assertThat(split.rest()).isEqualTo(and(mixed, other));

        Conjuncts.Split none = Conjuncts.split(other, List.of("k1"));
        assertThat(none.onColumns()).isSameAs(alwaysTrue());
        assertThat(none.rest()).isEqualTo(other);
    }
}
