package io.weir.expressions;

import io.weir.data.BinaryRow;

import java.util.function.Predicate;

/**
 * A node of a bound expression in negation normal form: constants, AND, OR and predicates, no NOT
 * (the binder pushes negations into the predicates). Without NOT, "the expression is TRUE" is
 * monotone in "each predicate is TRUE", which makes both evaluations below simple and exact.
 */
interface BoundNode {

    /** Whether the expression is TRUE for {@code row} (FALSE and UNKNOWN both give false). */
    boolean test(BinaryRow row);

    /**
     * Whether the expression might be TRUE, given for each predicate whether it might be TRUE.
     * Sound because the tree is monotone: a conservative answer per predicate gives a conservative
     * answer for the tree.
     */
    boolean mightMatch(Predicate<BoundPredicate> predicateMightMatch);
}
