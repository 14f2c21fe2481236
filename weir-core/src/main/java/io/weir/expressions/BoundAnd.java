package io.weir.expressions;

import io.weir.data.BinaryRow;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** TRUE where every child is TRUE; children flattened into one array. */
final class BoundAnd implements BoundNode {
    private final BoundNode[] children;

    private BoundAnd(BoundNode[] children) {
        this.children = children;
    }

    /** The conjunction, with constants folded and nested conjunctions flattened. */
    static BoundNode of(BoundNode left, BoundNode right) {
        if (left == BoundConstant.FALSE || right == BoundConstant.FALSE) {
            return BoundConstant.FALSE;
        } else if (left == BoundConstant.TRUE) {
            return right;
        } else if (right == BoundConstant.TRUE) {
            return left;
        }
        List<BoundNode> all = new ArrayList<>();
        for (BoundNode n : new BoundNode[] {left, right}) {
            if (n instanceof BoundAnd and) {
                all.addAll(List.of(and.children));
            } else {
                all.add(n);
            }
        }
        return new BoundAnd(all.toArray(new BoundNode[0]));
    }

    @Override
    public boolean test(BinaryRow row) {
        for (BoundNode child : children) {
            if (!child.test(row)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean mightMatch(Predicate<BoundPredicate> predicateMightMatch) {
        for (BoundNode child : children) {
            if (!child.mightMatch(predicateMightMatch)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return Stream.of(children)
                .map(Object::toString)
                .collect(Collectors.joining(" AND ", "(", ")"));
    }
}
