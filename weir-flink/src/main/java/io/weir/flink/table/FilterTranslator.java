package io.weir.flink.table;

import io.weir.expressions.Expression;
import io.weir.expressions.Expressions;
import io.weir.expressions.Operation;
import io.weir.types.RowType;
import io.weir.types.TypeRoot;

import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Translates Flink filter expressions into Weir expressions, only where the translation is exact
 * under SQL semantics (three-valued logic included), because Weir applies the filter row by row:
 * comparisons (=, &lt;&gt;, &lt;, &lt;=, &gt;, &gt;=) and IN between a column and literals of the
 * same type family, IS [NOT] NULL, IS [NOT] TRUE/FALSE, a bare BOOLEAN column, LIKE 'prefix%', and
 * AND, OR, NOT of those. Anything else (casts, functions, CHAR columns, null literals, other LIKE
 * patterns) is not translated.
 */
final class FilterTranslator {
    private static final Map<FunctionDefinition, Operation> COMPARISONS =
            Map.of(
                    BuiltInFunctionDefinitions.EQUALS, Operation.EQ,
                    BuiltInFunctionDefinitions.NOT_EQUALS, Operation.NOT_EQ,
                    BuiltInFunctionDefinitions.LESS_THAN, Operation.LT,
                    BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL, Operation.LT_EQ,
                    BuiltInFunctionDefinitions.GREATER_THAN, Operation.GT,
                    BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL, Operation.GT_EQ);

    private final RowType rowType;

    /**
     * @param rowType the table's full row type; columns are referenced by name
     */
    FilterTranslator(RowType rowType) {
        this.rowType = rowType;
    }

    /** The exact Weir equivalent of {@code e}, or empty. */
    Optional<Expression> translate(ResolvedExpression e) {
        Optional<Expression> translated = convert(e);
        try {
            translated.ifPresent(x -> x.bind(rowType));
        } catch (RuntimeException invalid) {
            return Optional.empty(); // e.g. a literal that does not fit the column
        }
        return translated;
    }

    private Optional<Expression> convert(ResolvedExpression e) {
        if (e instanceof FieldReferenceExpression f) {
            return column(f, TypeRoot.BOOLEAN).map(c -> Expressions.equal(c, true));
        }
        if (!(e instanceof CallExpression call)) {
            return Optional.empty();
        }
        FunctionDefinition fn = call.getFunctionDefinition();
        List<ResolvedExpression> args = call.getResolvedChildren();
        if (fn == BuiltInFunctionDefinitions.AND || fn == BuiltInFunctionDefinitions.OR) {
            List<Expression> parts = new ArrayList<>();
            for (ResolvedExpression arg : args) {
                Optional<Expression> part = convert(arg);
                if (part.isEmpty()) {
                    return Optional.empty();
                }
                parts.add(part.get());
            }
            Expression result = parts.get(0);
            for (int i = 1; i < parts.size(); i++) {
                result =
                        fn == BuiltInFunctionDefinitions.AND
                                ? Expressions.and(result, parts.get(i))
                                : Expressions.or(result, parts.get(i));
            }
            return Optional.of(result);
        } else if (fn == BuiltInFunctionDefinitions.NOT && args.size() == 1) {
            return convert(args.get(0)).map(Expressions::not);
        } else if (COMPARISONS.containsKey(fn) && args.size() == 2) {
            return comparison(COMPARISONS.get(fn), args.get(0), args.get(1));
        } else if (fn == BuiltInFunctionDefinitions.IS_NULL && args.size() == 1) {
            return anyColumn(args.get(0)).map(Expressions::isNull);
        } else if (fn == BuiltInFunctionDefinitions.IS_NOT_NULL && args.size() == 1) {
            return anyColumn(args.get(0)).map(Expressions::notNull);
        } else if (fn == BuiltInFunctionDefinitions.IN && args.size() >= 2) {
            return in(args);
        } else if (fn == BuiltInFunctionDefinitions.LIKE && args.size() == 2) {
            return like(args.get(0), args.get(1));
        } else if (args.size() == 1 && isBooleanTest(fn)) {
            return booleanTest(fn, args.get(0));
        }
        return Optional.empty();
    }

    private Optional<Expression> comparison(
            Operation op, ResolvedExpression left, ResolvedExpression right) {
        if (right instanceof FieldReferenceExpression && left instanceof ValueLiteralExpression) {
            return comparison(flip(op), right, left);
        }
        if (!(left instanceof FieldReferenceExpression f)
                || !(right instanceof ValueLiteralExpression literal)) {
            return Optional.empty();
        }
        Optional<String> column = anyColumn(f);
        Optional<Object> value = column.flatMap(c -> literal(literal, type(c)));
        return value.map(v -> Expressions.predicate(op, column.get(), v));
    }

    private Optional<Expression> in(List<ResolvedExpression> args) {
        if (!(args.get(0) instanceof FieldReferenceExpression f)) {
            return Optional.empty();
        }
        Optional<String> column = anyColumn(f);
        if (column.isEmpty()) {
            return Optional.empty();
        }
        List<Object> values = new ArrayList<>();
        for (ResolvedExpression arg : args.subList(1, args.size())) {
            if (!(arg instanceof ValueLiteralExpression literal)) {
                return Optional.empty();
            }
            Optional<Object> value = literal(literal, type(column.get()));
            if (value.isEmpty()) {
                return Optional.empty(); // also a null in the list: x IN (1, NULL) is never FALSE
            }
            values.add(value.get());
        }
        return Optional.of(Expressions.in(column.get(), values));
    }

    /** LIKE 'abc%' is STARTS WITH 'abc'; other patterns have wildcards or escapes Weir lacks. */
    private Optional<Expression> like(ResolvedExpression left, ResolvedExpression right) {
        if (!(left instanceof FieldReferenceExpression f)
                || !(right instanceof ValueLiteralExpression literal)) {
            return Optional.empty();
        }
        Optional<String> column = column(f, TypeRoot.VARCHAR);
        Optional<String> pattern = literal.getValueAs(String.class);
        if (column.isEmpty() || pattern.isEmpty()) {
            return Optional.empty();
        }
        String p = pattern.get();
        String prefix = p.isEmpty() ? "" : p.substring(0, p.length() - 1);
        if (!p.endsWith("%")
                || prefix.indexOf('%') >= 0
                || prefix.indexOf('_') >= 0
                || prefix.indexOf('\\') >= 0) {
            return Optional.empty();
        }
        return Optional.of(Expressions.startsWith(column.get(), prefix));
    }

    private static boolean isBooleanTest(FunctionDefinition fn) {
        return fn == BuiltInFunctionDefinitions.IS_TRUE
                || fn == BuiltInFunctionDefinitions.IS_NOT_TRUE
                || fn == BuiltInFunctionDefinitions.IS_FALSE
                || fn == BuiltInFunctionDefinitions.IS_NOT_FALSE;
    }

    /**
     * IS TRUE is never UNKNOWN: {@code c IS TRUE} is {@code c IS NOT NULL AND c = TRUE}, FALSE (not
     * UNKNOWN) for null, also under NOT.
     */
    private Optional<Expression> booleanTest(FunctionDefinition fn, ResolvedExpression arg) {
        if (!(arg instanceof FieldReferenceExpression f)) {
            return Optional.empty();
        }
        return column(f, TypeRoot.BOOLEAN)
                .map(
                        c -> {
                            boolean value =
                                    fn == BuiltInFunctionDefinitions.IS_TRUE
                                            || fn == BuiltInFunctionDefinitions.IS_NOT_TRUE;
                            Expression is =
                                    Expressions.and(
                                            Expressions.notNull(c), Expressions.equal(c, value));
                            boolean negated =
                                    fn == BuiltInFunctionDefinitions.IS_NOT_TRUE
                                            || fn == BuiltInFunctionDefinitions.IS_NOT_FALSE;
                            return negated ? Expressions.not(is) : is;
                        });
    }

    private Optional<String> anyColumn(ResolvedExpression e) {
        if (e instanceof FieldReferenceExpression f && rowType.indexOf(f.getName()) >= 0) {
            return Optional.of(f.getName());
        }
        return Optional.empty();
    }

    private Optional<String> column(FieldReferenceExpression f, TypeRoot root) {
        return anyColumn(f).filter(c -> type(c) == root);
    }

    private TypeRoot type(String column) {
        return rowType.type(rowType.indexOf(column)).root();
    }

    /**
     * The literal's value, if its type is of the column's family (the planner casts otherwise):
     * numbers for numbers (exact ones for DECIMAL), VARCHAR literals for VARCHAR columns, and
     * exactly the same kind of date, time or timestamp. CHAR columns are left out: Flink pads CHAR
     * values, Weir compares them as stored.
     */
    private static Optional<Object> literal(ValueLiteralExpression literal, TypeRoot column) {
        if (literal.isNull()) {
            return Optional.empty();
        }
        LogicalTypeRoot type = literal.getOutputDataType().getLogicalType().getTypeRoot();
        Class<?> javaClass =
                switch (column) {
                    case TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE -> numberClass(type);
                        // Flink compares DECIMAL with FLOAT/DOUBLE in floating point
                    case DECIMAL ->
                            type == LogicalTypeRoot.FLOAT || type == LogicalTypeRoot.DOUBLE
                                    ? null
                                    : numberClass(type);
                    case BOOLEAN -> type == LogicalTypeRoot.BOOLEAN ? Boolean.class : null;
                    case VARCHAR ->
                            type == LogicalTypeRoot.VARCHAR || type == LogicalTypeRoot.CHAR
                                    ? String.class
                                    : null;
                    case BINARY, VARBINARY ->
                            type == LogicalTypeRoot.BINARY || type == LogicalTypeRoot.VARBINARY
                                    ? byte[].class
                                    : null;
                    case DATE -> type == LogicalTypeRoot.DATE ? LocalDate.class : null;
                    case TIME ->
                            type == LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE ? LocalTime.class : null;
                    case TIMESTAMP ->
                            type == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                                    ? LocalDateTime.class
                                    : null;
                    case TIMESTAMP_LTZ ->
                            type == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                                    ? Instant.class
                                    : null;
                    case CHAR -> null;
                };
        if (javaClass == null) {
            return Optional.empty();
        }
        return literal.getValueAs(javaClass).map(v -> (Object) v);
    }

    private static Class<?> numberClass(LogicalTypeRoot type) {
        return switch (type) {
            case TINYINT -> Byte.class;
            case SMALLINT -> Short.class;
            case INTEGER -> Integer.class;
            case BIGINT -> Long.class;
            case DECIMAL -> BigDecimal.class;
            case FLOAT -> Float.class;
            case DOUBLE -> Double.class;
            default -> null;
        };
    }

    private static Operation flip(Operation op) {
        return switch (op) {
            case LT -> Operation.GT;
            case LT_EQ -> Operation.GT_EQ;
            case GT -> Operation.LT;
            case GT_EQ -> Operation.LT_EQ;
            default -> op;
        };
    }
}
