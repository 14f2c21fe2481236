package io.weir.expressions;

import io.weir.data.BinaryRow;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** TRUE where some child is TRUE; children flattened into one array. */
final class BoundOr implements BoundNode {
    private final BoundNode[] children;

    private BoundOr(BoundNode[] children) {
        this.children = children;
    }

    /** The disjunction, with constants folded and nested disjunctions flattened. */
    static BoundNode of(BoundNode left, BoundNode right) {
        if (left == BoundConstant.TRUE || right == BoundConstant.TRUE) {
            return BoundConstant.TRUE;
        } else if (left == BoundConstant.FALSE) {
            return right;
        } else if (right == BoundConstant.FALSE) {
            return left;
        }
        List<BoundNode> all = new ArrayList<>();
        for (BoundNode n : new BoundNode[] {left, right}) {
            if (n instanceof BoundOr or) {
                all.addAll(List.of(or.children));
            } else {
                all.add(n);
            }
        }
        return new BoundOr(all.toArray(new BoundNode[0]));
    }

    @Override
    public boolean test(BinaryRow row) {
        for (BoundNode child : children) {
            if (child.test(row)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean mightMatch(Predicate<BoundPredicate> predicateMightMatch) {
        for (BoundNode child : children) {
            if (child.mightMatch(predicateMightMatch)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return Stream.of(children)
                .map(Object::toString)
                .collect(Collectors.joining(" OR ", "(", ")"));
    }
}
