package io.weir.expressions;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Splits filters into conjuncts, for scans where only some columns may prune: the partition keys,
 * or for primary-key tables the key columns (see {@link BoundExpression}).
 */
public final class Conjuncts {
    private Conjuncts() {}

    /**
     * A filter split in two by the columns its conjuncts reference. {@code onColumns AND rest} is
     * equivalent to the filter, under three-valued logic too (an AND is TRUE iff both sides are),
     * so rows or files that cannot pass {@code onColumns} cannot pass the filter.
     *
     * @param onColumns the AND of the conjuncts that reference only the given columns (TRUE if
     *     none)
     * @param rest the AND of the other conjuncts (TRUE if none)
     */
    public record Split(Expression onColumns, Expression rest) {}

    /**
     * Splits {@code filter} into its conjuncts (see {@link #of}) on {@code columns} and the rest.
     */
    public static Split split(Expression filter, Collection<String> columns) {
        Set<String> allowed = Set.copyOf(columns);
        List<Expression> on = new ArrayList<>();
        List<Expression> rest = new ArrayList<>();
        for (Expression conjunct : of(filter)) {
            (allowed.containsAll(conjunct.columns()) ? on : rest).add(conjunct);
        }
        return new Split(Expressions.and(on), Expressions.and(rest));
    }

    /**
     * The top-level conjuncts of {@code filter}: nested ANDs flattened, and NOT over OR expanded by
     * De Morgan ({@code NOT (a OR b)} gives {@code NOT a} and {@code NOT b}). Their AND is
     * equivalent to the filter. TRUE has no conjuncts.
     */
    public static List<Expression> of(Expression filter) {
        List<Expression> conjuncts = new ArrayList<>();
        collect(filter, false, conjuncts);
        return conjuncts;
    }

    private static void collect(Expression e, boolean negated, List<Expression> into) {
        if (e instanceof Not not) {
            collect(not.child(), !negated, into);
        } else if (!negated && e instanceof And and) {
            collect(and.left(), false, into);
            collect(and.right(), false, into);
        } else if (negated && e instanceof Or or) {
            collect(or.left(), true, into);
            collect(or.right(), true, into);
        } else if (e != (negated ? Constant.FALSE : Constant.TRUE)) {
            into.add(negated ? Expressions.not(e) : e);
        }
    }
}
