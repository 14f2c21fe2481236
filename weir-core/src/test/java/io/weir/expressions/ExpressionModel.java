package io.weir.expressions;

import io.weir.data.Timestamp;
import io.weir.types.DataType;
import io.weir.types.RowType;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * An independent interpreter of unbound expressions over Java values, written from the semantics in
 * package-info with plain Java comparisons: SQL three-valued logic (null is UNKNOWN), strings by
 * code points, FLOAT/DOUBLE with Java's primitive operators.
 */
final class ExpressionModel {
    private ExpressionModel() {}

    /** TRUE, FALSE, or null for UNKNOWN. */
    static Boolean eval(Expression e, RowType type, Object[] row) {
        if (e instanceof Constant c) {
            return c == Constant.TRUE;
        } else if (e instanceof Not not) {
            Boolean v = eval(not.child(), type, row);
            return v == null ? null : !v;
        } else if (e instanceof And and) {
            Boolean l = eval(and.left(), type, row);
            Boolean r = eval(and.right(), type, row);
            if (Boolean.FALSE.equals(l) || Boolean.FALSE.equals(r)) {
                return false;
            }
            return l == null || r == null ? null : true;
        } else if (e instanceof Or or) {
            Boolean l = eval(or.left(), type, row);
            Boolean r = eval(or.right(), type, row);
            if (Boolean.TRUE.equals(l) || Boolean.TRUE.equals(r)) {
                return true;
            }
            return l == null || r == null ? null : false;
        }
        UnboundPredicate p = (UnboundPredicate) e;
        int pos = type.indexOf(p.column());
        DataType t = type.type(pos);
        Object v = row[pos];
        switch (p.op()) {
            case IS_NULL:
                return v == null;
            case NOT_NULL:
                return v != null;
            case IN:
                return in(v, p.literals(), t);
            case NOT_IN:
                Boolean in = in(v, p.literals(), t);
                return in == null ? null : !in;
            default:
                break;
        }
        if (v == null) {
            return null;
        }
        if (t.root() == io.weir.types.TypeRoot.FLOAT || t.root() == io.weir.types.TypeRoot.DOUBLE) {
            double x = ((Number) v).doubleValue();
            double c = p.op().operands() == 0 ? 0 : ((Number) p.literal()).doubleValue();
            return switch (p.op()) {
                case IS_NAN -> Double.isNaN(x);
                case NOT_NAN -> !Double.isNaN(x);
                case EQ -> x == c;
                case NOT_EQ -> x != c;
                case LT -> x < c;
                case LT_EQ -> x <= c;
                case GT -> x > c;
                case GT_EQ -> x >= c;
                default -> throw new IllegalStateException(p.toString());
            };
        }
        if (p.op() == Operation.STARTS_WITH || p.op() == Operation.NOT_STARTS_WITH) {
            boolean starts = ((String) v).startsWith((String) p.literal());
            return p.op() == Operation.STARTS_WITH ? starts : !starts;
        }
        int c = compare(v, canonical(p.literal(), t), t);
        return switch (p.op()) {
            case EQ -> c == 0;
            case NOT_EQ -> c != 0;
            case LT -> c < 0;
            case LT_EQ -> c <= 0;
            case GT -> c > 0;
            case GT_EQ -> c >= 0;
            default -> throw new IllegalStateException(p.toString());
        };
    }

    /** x IN (a, b) is x = a OR x = b; with no values FALSE. */
    private static Boolean in(Object v, List<Object> literals, DataType t) {
        if (literals.isEmpty()) {
            return false;
        }
        if (v == null) {
            return null;
        }
        for (Object literal : literals) {
            boolean equal =
                    switch (t.root()) {
                        case FLOAT, DOUBLE ->
                                ((Number) v).doubleValue() == ((Number) literal).doubleValue();
                        default -> compare(v, canonical(literal, t), t) == 0;
                    };
            if (equal) {
                return true;
            }
        }
        return false;
    }

    /** Orders two non-null values of the type (not FLOAT/DOUBLE). */
    static int compare(Object a, Object b, DataType t) {
        return switch (t.root()) {
            case BOOLEAN -> Boolean.compare((Boolean) a, (Boolean) b);
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME ->
                    Long.compare(((Number) a).longValue(), ((Number) b).longValue());
            case DECIMAL -> ((BigDecimal) a).compareTo((BigDecimal) b);
            case CHAR, VARCHAR ->
                    Arrays.compare(
                            ((String) a).codePoints().toArray(),
                            ((String) b).codePoints().toArray());
            case BINARY, VARBINARY -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                Timestamp x = (Timestamp) a;
                Timestamp y = (Timestamp) b;
                int c = Long.compare(x.millis(), y.millis());
                yield c != 0 ? c : Integer.compare(x.nanoOfMillisecond(), y.nanoOfMillisecond());
            }
            case FLOAT, DOUBLE -> throw new IllegalArgumentException("unordered: " + t);
        };
    }

    /** A literal in the form of row values, converted independently of the code under test. */
    static Object canonical(Object literal, DataType t) {
        return switch (t.root()) {
            case DATE -> literal instanceof LocalDate d ? (int) d.toEpochDay() : literal;
            case TIME ->
                    literal instanceof LocalTime lt
                            ? (int) (lt.toNanoOfDay() / 1_000_000)
                            : literal;
            case DECIMAL ->
                    literal instanceof BigDecimal d
                            ? d
                            : BigDecimal.valueOf(((Number) literal).longValue());
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                Instant i =
                        literal instanceof LocalDateTime ldt
                                ? ldt.toInstant(ZoneOffset.UTC)
                                : literal instanceof Instant in ? in : null;
                yield i == null
                        ? literal
                        : new Timestamp(
                                Math.floorDiv(
                                        i.getEpochSecond() * 1_000_000_000L + i.getNano(),
                                        1_000_000L),
                                i.getNano() % 1_000_000);
            }
            default -> literal;
        };
    }

    /** A random expression over the columns of {@code type}, of the given depth at most. */
    static Expression randomExpression(RowType type, Random random, int depth) {
        if (depth > 0 && random.nextInt(3) > 0) {
            return switch (random.nextInt(3)) {
                case 0 ->
                        new And(
                                randomExpression(type, random, depth - 1),
                                randomExpression(type, random, depth - 1));
                case 1 ->
                        new Or(
                                randomExpression(type, random, depth - 1),
                                randomExpression(type, random, depth - 1));
                default -> new Not(randomExpression(type, random, depth - 1));
            };
        }
        return randomPredicate(type, random);
    }

    static UnboundPredicate randomPredicate(RowType type, Random random) {
        int pos = random.nextInt(type.size());
        String column = type.field(pos).name();
        DataType t = type.type(pos);
        List<Operation> ops = new java.util.ArrayList<>(List.of(Operation.values()));
        if (t.root() != io.weir.types.TypeRoot.FLOAT && t.root() != io.weir.types.TypeRoot.DOUBLE) {
            ops.removeAll(List.of(Operation.IS_NAN, Operation.NOT_NAN));
        }
        if (!t.root().isCharacterString()) {
            ops.removeAll(List.of(Operation.STARTS_WITH, Operation.NOT_STARTS_WITH));
        }
        Operation op = ops.get(random.nextInt(ops.size()));
        int n = op.operands() >= 0 ? op.operands() : random.nextInt(5);
        Object[] literals = new Object[n];
        for (int i = 0; i < n; i++) {
            literals[i] = TestData.randomLiteral(t, random);
        }
        return new UnboundPredicate(op, column, Arrays.asList(literals));
    }
}
