package io.weir.expressions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;

/**
 * Factories for {@link Expression}s, in the style of Iceberg: {@code and(equal("country", "NL"),
 * greaterThanOrEqual("ts", LocalDateTime.of(2024, 1, 1, 0, 0)))}.
 *
 * <p>Literals may be the objects of {@code BinaryRow.get} for the column's type or a convenient
 * Java form converted when the expression is bound: any integral number for integer columns (in
 * range), numbers for FLOAT/DOUBLE, BigDecimal or exact numbers for DECIMAL, LocalDate or epoch
 * days for DATE, LocalTime or millis of day for TIME, Timestamp, LocalDateTime or Instant for
 * timestamps, and ISO text for numbers, dates, times and timestamps. Literals must not be null.
 *
 * <p>{@link #and}, {@link #or} and {@link #not} fold constants and double negation; that is exact
 * under SQL's three-valued logic (FALSE AND UNKNOWN is FALSE, TRUE OR UNKNOWN is TRUE).
 */
public final class Expressions {
    private Expressions() {}

    public static Expression alwaysTrue() {
        return Constant.TRUE;
    }

    public static Expression alwaysFalse() {
        return Constant.FALSE;
    }

    public static Expression and(Expression left, Expression right) {
        if (left == Constant.FALSE || right == Constant.FALSE) {
            return Constant.FALSE;
        } else if (left == Constant.TRUE) {
            return right;
        } else if (right == Constant.TRUE) {
            return left;
        }
        return new And(left, right);
    }

    public static Expression and(Expression first, Expression second, Expression... more) {
        Expression result = and(first, second);
        for (Expression e : more) {
            result = and(result, e);
        }
        return result;
    }

    /** The conjunction of all {@code expressions}; TRUE when there are none. */
    public static Expression and(Collection<? extends Expression> expressions) {
        Expression result = Constant.TRUE;
        for (Expression e : expressions) {
            result = and(result, e);
        }
        return result;
    }

    public static Expression or(Expression left, Expression right) {
        if (left == Constant.TRUE || right == Constant.TRUE) {
            return Constant.TRUE;
        } else if (left == Constant.FALSE) {
            return right;
        } else if (right == Constant.FALSE) {
            return left;
        }
        return new Or(left, right);
    }

    public static Expression or(Expression first, Expression second, Expression... more) {
        Expression result = or(first, second);
        for (Expression e : more) {
            result = or(result, e);
        }
        return result;
    }

    public static Expression not(Expression child) {
        if (child == Constant.TRUE) {
            return Constant.FALSE;
        } else if (child == Constant.FALSE) {
            return Constant.TRUE;
        } else if (child instanceof Not not) {
            return not.child();
        }
        return new Not(child);
    }

    public static Expression isNull(String column) {
        return predicate(Operation.IS_NULL, column);
    }

    public static Expression notNull(String column) {
        return predicate(Operation.NOT_NULL, column);
    }

    /** TRUE for NaN values of a FLOAT or DOUBLE column, UNKNOWN for null. */
    public static Expression isNaN(String column) {
        return predicate(Operation.IS_NAN, column);
    }

    /** TRUE for values of a FLOAT or DOUBLE column other than NaN, UNKNOWN for null. */
    public static Expression notNaN(String column) {
        return predicate(Operation.NOT_NAN, column);
    }

    public static Expression lessThan(String column, Object value) {
        return predicate(Operation.LT, column, value);
    }

    public static Expression lessThanOrEqual(String column, Object value) {
        return predicate(Operation.LT_EQ, column, value);
    }

    public static Expression greaterThan(String column, Object value) {
        return predicate(Operation.GT, column, value);
    }

    public static Expression greaterThanOrEqual(String column, Object value) {
        return predicate(Operation.GT_EQ, column, value);
    }

    public static Expression equal(String column, Object value) {
        return predicate(Operation.EQ, column, value);
    }

    public static Expression notEqual(String column, Object value) {
        return predicate(Operation.NOT_EQ, column, value);
    }

    /**
     * TRUE where the column equals one of the values. With no values it is FALSE for every row (the
     * disjunction of no equalities).
     */
    public static Expression in(String column, Object... values) {
        return new UnboundPredicate(Operation.IN, column, Arrays.asList(values));
    }

    public static Expression in(String column, Collection<?> values) {
        return new UnboundPredicate(Operation.IN, column, new ArrayList<>(values));
    }

    /** TRUE where the column is not null and differs from every value (TRUE for no values). */
    public static Expression notIn(String column, Object... values) {
        return new UnboundPredicate(Operation.NOT_IN, column, Arrays.asList(values));
    }

    public static Expression notIn(String column, Collection<?> values) {
        return new UnboundPredicate(Operation.NOT_IN, column, new ArrayList<>(values));
    }

    /** TRUE where a CHAR/VARCHAR column starts with {@code prefix}. */
    public static Expression startsWith(String column, String prefix) {
        return predicate(Operation.STARTS_WITH, column, prefix);
    }

    public static Expression notStartsWith(String column, String prefix) {
        return predicate(Operation.NOT_STARTS_WITH, column, prefix);
    }

    /** A predicate of any operation; {@code literals} must match {@link Operation#operands()}. */
    public static Expression predicate(Operation op, String column, Object... literals) {
        return new UnboundPredicate(op, column, Arrays.asList(literals));
    }
}
