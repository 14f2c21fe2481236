package io.weir.expressions;

import io.weir.exceptions.ValidationException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A predicate on one column by name, with its literals as given (any Java form that {@link
 * Expression#bind} can convert to the column's type). Literals are never null: compare with null
 * through {@link Operation#IS_NULL} / {@link Operation#NOT_NULL}.
 */
public record UnboundPredicate(Operation op, String column, List<Object> literals)
        implements Expression {

    public UnboundPredicate {
        Objects.requireNonNull(op, "op");
        ValidationException.check(
                column != null && !column.isBlank(),
                "Cannot create filter %s: the column name is missing",
                op);
        ValidationException.check(
                literals != null && (op.operands() < 0 || literals.size() == op.operands()),
                "Cannot create filter %s %s: expected %s literal(s), got %s",
                column,
                op.symbol(),
                op.operands(),
                literals == null ? 0 : literals.size());
        List<Object> copy = new ArrayList<>(literals.size());
        for (Object literal : literals) {
            ValidationException.check(
                    literal != null,
                    "Cannot create filter %s %s null: use isNull or notNull to test for null",
                    column,
                    op.symbol());
            copy.add(literal instanceof byte[] b ? b.clone() : literal);
        }
        literals = Collections.unmodifiableList(copy);
    }

    /** The single literal of a comparison or STARTS WITH. */
    public Object literal() {
        if (literals.size() != 1) {
            throw new IllegalStateException(op + " has " + literals.size() + " literals");
        }
        return literals.get(0);
    }

    // byte[] literals compare by content
    @Override
    public boolean equals(Object o) {
        return o instanceof UnboundPredicate other
                && op == other.op
                && column.equals(other.column)
                && Arrays.deepEquals(literals.toArray(), other.literals.toArray());
    }

    @Override
    public int hashCode() {
        return Objects.hash(op, column, Arrays.deepHashCode(literals.toArray()));
    }

    @Override
    public String toString() {
        return switch (op.operands()) {
            case 0 -> column + " " + op.symbol();
            case 1 -> column + " " + op.symbol() + " " + Literals.format(literals.get(0));
            default ->
                    column
                            + " "
                            + op.symbol()
                            + " ("
                            + literals.stream()
                                    .map(Literals::format)
                                    .collect(Collectors.joining(", "))
                            + ")";
        };
    }
}
