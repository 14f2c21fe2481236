package io.weir.expressions;

import io.weir.types.DataType;
import io.weir.types.Field;

import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A predicate on the column at a position of the bound row type, with its literals converted to the
 * column's type. Subclasses evaluate it on rows in place, without allocating, and on {@link
 * ColumnBounds}.
 */
abstract class BoundPredicate implements BoundNode {
    final Operation op;
    final int pos;
    final Field field;
    private final List<Object> literals;

    /**
     * @param literals canonical values of the column's type ({@link Literals#convert}), in the
     *     order evaluators index them (sorted and distinct for IN, NOT IN)
     */
    BoundPredicate(Operation op, int pos, Field field, List<Object> literals) {
        this.op = op;
        this.pos = pos;
        this.field = field;
        this.literals = List.copyOf(literals);
    }

    /** Creates the predicate for the column's {@link Kind}. */
    static BoundPredicate create(Operation op, int pos, Field field, List<Object> literals) {
        if (op == Operation.IS_NULL || op == Operation.NOT_NULL) {
            return new NullPredicate(op, pos, field);
        }
        return switch (Kind.of(field.type())) {
            case LONG -> new LongPredicate(op, pos, field, literals);
            case DOUBLE -> new DoublePredicate(op, pos, field, literals);
            case BIG_DECIMAL -> new BigDecimalPredicate(op, pos, field, literals);
            case BYTES -> new BytesPredicate(op, pos, field, literals);
            case TIMESTAMP -> new TimestampPredicate(op, pos, field, literals);
        };
    }

    /** The position of the column in the bound row type. */
    int pos() {
        return pos;
    }

    DataType type() {
        return field.type();
    }

    /**
     * Whether a row whose column lies within {@code bounds} might make this predicate TRUE. Must
     * never be false when such a row exists.
     */
    abstract boolean mightMatch(ColumnBounds bounds);

    @Override
    public final boolean mightMatch(Predicate<BoundPredicate> predicateMightMatch) {
        return predicateMightMatch.test(this);
    }

    @Override
    public String toString() {
        String name = field.name();
        return switch (op.operands()) {
            case 0 -> name + " " + op.symbol();
            case 1 -> name + " " + op.symbol() + " " + Literals.format(literals.get(0), type());
            default ->
                    name
                            + " "
                            + op.symbol()
                            + " ("
                            + literals.stream()
                                    .map(v -> Literals.format(v, type()))
                                    .collect(Collectors.joining(", "))
                            + ")";
        };
    }
}
