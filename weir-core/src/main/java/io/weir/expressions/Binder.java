package io.weir.expressions;

import io.weir.exceptions.ValidationException;
import io.weir.types.DataType;
import io.weir.types.Field;
import io.weir.types.RowType;
import io.weir.types.TypeRoot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Binds an {@link Expression} to a row type: resolves columns, converts literals, and pushes every
 * NOT down to the predicates (negation normal form), so that bound trees contain no NOT.
 *
 * <p>A negated predicate must be TRUE exactly where the predicate is FALSE, and UNKNOWN where it is
 * UNKNOWN (null values); {@link Operation#negate()} gives that for every type except the order
 * comparisons of FLOAT/DOUBLE: {@code x < c} is FALSE for NaN, and so is {@code x >= c}. There NOT
 * {@code x < c} becomes {@code x >= c OR x IS NAN}, and a comparison with a NaN literal, FALSE for
 * every non-null value, becomes {@code x IS NOT NULL}.
 */
final class Binder {
    private Binder() {}

    static BoundNode bind(Expression expression, RowType rowType) {
        return bind(expression, rowType, false);
    }

    private static BoundNode bind(Expression e, RowType rowType, boolean negate) {
        if (e instanceof Constant c) {
            return BoundConstant.of((c == Constant.TRUE) != negate);
        } else if (e instanceof Not not) {
            return bind(not.child(), rowType, !negate);
        } else if (e instanceof And and) {
            BoundNode left = bind(and.left(), rowType, negate);
            BoundNode right = bind(and.right(), rowType, negate);
            return negate ? BoundOr.of(left, right) : BoundAnd.of(left, right);
        } else if (e instanceof Or or) {
            BoundNode left = bind(or.left(), rowType, negate);
            BoundNode right = bind(or.right(), rowType, negate);
            return negate ? BoundAnd.of(left, right) : BoundOr.of(left, right);
        }
        return bindPredicate((UnboundPredicate) e, rowType, negate);
    }

    private static BoundNode bindPredicate(UnboundPredicate p, RowType rowType, boolean negate) {
        int pos = rowType.indexOf(p.column());
        if (pos < 0) {
            throw error(p.column(), "no such column (columns: " + rowType.names() + ")");
        }
        Field field = rowType.field(pos);
        DataType type = field.type();
        Operation op = p.op();
        checkApplicable(op, field);
        List<Object> literals = new ArrayList<>(p.literals().size());
        for (Object literal : p.literals()) {
            try {
                literals.add(Literals.convert(literal, type));
            } catch (IllegalArgumentException e) {
                throw error(field.name(), e.getMessage());
            }
        }
        if (op == Operation.IN || op == Operation.NOT_IN) {
            if (literals.isEmpty()) {
                return BoundConstant.of((op == Operation.NOT_IN) != negate);
            }
            literals = sortedDistinct(literals, type);
        }
        if (negate && Kind.of(type) == Kind.DOUBLE && isOrderComparison(op)) {
            if (Double.isNaN((Double) literals.get(0))) {
                return new NullPredicate(Operation.NOT_NULL, pos, field);
            }
            return BoundOr.of(
                    BoundPredicate.create(op.negate(), pos, field, literals),
                    BoundPredicate.create(Operation.IS_NAN, pos, field, List.of()));
        }
        return BoundPredicate.create(negate ? op.negate() : op, pos, field, literals);
    }

    private static void checkApplicable(Operation op, Field field) {
        TypeRoot root = field.type().root();
        switch (op) {
            case IS_NAN, NOT_NAN -> {
                if (root != TypeRoot.FLOAT && root != TypeRoot.DOUBLE) {
                    throw error(field.name(), needs(op, "a FLOAT or DOUBLE", field));
                }
            }
            case STARTS_WITH, NOT_STARTS_WITH -> {
                if (!root.isCharacterString()) {
                    throw error(field.name(), needs(op, "a CHAR or VARCHAR", field));
                }
            }
            default -> {}
        }
    }

    private static String needs(Operation op, String what, Field field) {
        return op.symbol() + " needs " + what + " column, not " + Literals.name(field.type());
    }

    private static boolean isOrderComparison(Operation op) {
        return op == Operation.LT
                || op == Operation.LT_EQ
                || op == Operation.GT
                || op == Operation.GT_EQ;
    }

    /** IN lists in the evaluators' order, without duplicates (and for doubles without NaN). */
    private static List<Object> sortedDistinct(List<Object> literals, DataType type) {
        Kind kind = Kind.of(type);
        List<Object> list = new ArrayList<>();
        for (Object v : literals) {
            if (kind == Kind.DOUBLE) {
                double d = (Double) v;
                if (Double.isNaN(d)) {
                    continue;
                }
                v = d == 0.0 ? 0.0 : d;
            }
            list.add(v);
        }
        Comparator<Object> order =
                (a, b) -> kind.compare(Literals.toDomain(a, type), Literals.toDomain(b, type));
        list.sort(order);
        List<Object> distinct = new ArrayList<>(list.size());
        for (Object v : list) {
            if (distinct.isEmpty() || order.compare(distinct.get(distinct.size() - 1), v) != 0) {
                distinct.add(v);
            }
        }
        return distinct;
    }

    private static ValidationException error(String column, String problem) {
        return new ValidationException("Cannot bind filter on column '" + column + "': " + problem);
    }
}
