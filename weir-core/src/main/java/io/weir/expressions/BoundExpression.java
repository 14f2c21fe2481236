package io.weir.expressions;

import io.weir.ColumnStats;
import io.weir.Partition;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.ValueStrings;
import io.weir.types.DataType;
import io.weir.types.RowType;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An {@link Expression} bound to a row type: evaluates rows exactly and metadata conservatively.
 * Immutable and thread-safe; bind once per scan and share.
 *
 * <p>{@link #test} is exact SQL semantics: a predicate on a null value is UNKNOWN, AND, OR and NOT
 * follow three-valued logic, and a row passes only if the filter is TRUE. The {@code mightMatch*}
 * methods answer for a set of rows described by metadata; they are sound: they return false only if
 * no row of the set can pass {@link #test}, so a caller may skip the set. They return true whenever
 * the metadata cannot tell (missing statistics, columns the metadata does not cover).
 *
 * <p>Which metadata may prune what is the scan's decision:
 *
 * <ul>
 *   <li>{@link #mightMatchPartition} and {@link #mightMatchKeyRange} look only at partition and
 *       primary-key columns, which are the same in every version of a key; they may prune single
 *       files of any table with the whole filter.
 *   <li>{@link #mightMatch} looks at the statistics of every column. For an append-only table every
 *       row is final, so it may prune single files with the whole filter. For a primary-key table
 *       the value of a row is the merge of all versions of its key in a file group, so the
 *       statistics of one file say nothing about merged values of non-key columns: bind the part of
 *       the filter on key columns, {@link Conjuncts#split}{@code (filter, primaryKey).onColumns()},
 *       to prune single files; the rest may only skip a whole file group, and only where the merge
 *       cannot produce a value that no file of the group holds.
 * </ul>
 */
public final class BoundExpression {
    private final Expression expression;
    private final RowType rowType;
    private final BoundNode root;

    BoundExpression(Expression expression, RowType rowType, BoundNode root) {
        this.expression = expression;
        this.rowType = rowType;
        this.root = root;
    }

    /** The expression as given to {@link Expression#bind}. */
    public Expression expression() {
        return expression;
    }

    public RowType rowType() {
        return rowType;
    }

    /** Whether the filter passes every row (e.g. {@code alwaysTrue()}, {@code in("x")} negated). */
    public boolean isAlwaysTrue() {
        return root == BoundConstant.TRUE;
    }

    /** Whether the filter passes no row. */
    public boolean isAlwaysFalse() {
        return root == BoundConstant.FALSE;
    }

    /**
     * Whether the filter is TRUE for {@code row}, a row of the bound row type. Allocates nothing,
     * except for DECIMAL columns of precision above 18.
     */
    public boolean test(BinaryRow row) {
        return root.test(row);
    }

    /**
     * Whether a base file with these statistics might hold a row that passes the filter.
     *
     * <p>The statistics must be sound: every non-null value of a column lies within [min, max] in
     * the order the filter uses (numbers; strings by UTF-8 bytes, i.e. code points; binaries by
     * unsigned bytes); a min or max may be null for "unknown". A column without an entry, or with a
     * min or max that does not parse as its type (e.g. written under an older type), is unknown.
     * For FLOAT/DOUBLE a NaN min or max is unknown, and files may hold NaN outside [min, max].
     *
     * @param stats statistics by field id, as in {@link io.weir.DataFile#columnStats()}
     * @param recordCount the number of rows in the file; negative if unknown
     */
    public boolean mightMatch(Map<Integer, ColumnStats> stats, long recordCount) {
        if (recordCount == 0) {
            return false;
        }
        ColumnBounds[] bounds = new ColumnBounds[rowType.size()];
        return root.mightMatch(
                p -> {
                    if (bounds[p.pos()] == null) {
                        bounds[p.pos()] =
                                statsBounds(stats.get(p.field.id()), p.type(), recordCount);
                    }
                    return p.mightMatch(bounds[p.pos()]);
                });
    }

    private static ColumnBounds statsBounds(ColumnStats s, DataType type, long recordCount) {
        if (s == null) {
            return ColumnBounds.UNKNOWN;
        }
        boolean countsKnown = recordCount > 0 && s.nullCount() >= 0;
        return new ColumnBounds(
                parse(s.min(), type),
                parse(s.max(), type),
                !countsKnown || s.nullCount() > 0,
                !countsKnown || s.nullCount() < recordCount);
    }

    /**
     * Whether a partition might hold a row that passes the filter. Exact for predicates on
     * partition columns (evaluated on the partition's values as on a row), unknown for the others.
     *
     * @param partition the partition's values, as texts in partition-key order
     * @param partitionKeys the names of the partition columns of the table
     */
    public boolean mightMatchPartition(Partition partition, List<String> partitionKeys) {
        return mightMatchPartition(partition, partitionKeys, -1, ColumnBounds.UNKNOWN);
    }

    /**
     * Like {@link #mightMatchPartition(Partition, List)}, where also every non-null value of column
     * {@code rangeColumn} in the partition is known to lie within [{@code min}, {@code max}] and
     * the column holds no null: for time partitions, whose period bounds the time column that the
     * partition is derived from.
     *
     * @param min the smallest value (as {@link BinaryRow#get} returns it), or null if unbounded
     * @param max the greatest value, or null if unbounded
     */
    public boolean mightMatchPartition(
            Partition partition,
            List<String> partitionKeys,
            String rangeColumn,
            Object min,
            Object max) {
        int pos = rowType.indexOf(rangeColumn);
        if (pos < 0) {
            return mightMatchPartition(partition, partitionKeys);
        }
        DataType type = rowType.type(pos);
        ColumnBounds bounds =
                new ColumnBounds(
                        min == null ? null : Literals.toDomain(min, type),
                        max == null ? null : Literals.toDomain(max, type),
                        false,
                        true);
        return mightMatchPartition(partition, partitionKeys, pos, bounds);
    }

    private boolean mightMatchPartition(
            Partition partition, List<String> partitionKeys, int rangePos, ColumnBounds range) {
        List<String> values = partition.values();
        if (values.size() != partitionKeys.size()) {
            throw new IllegalArgumentException(
                    "Partition " + partition + " does not match partition keys " + partitionKeys);
        }
        int arity = rowType.size();
        String[] texts = new String[arity];
        boolean[] known = new boolean[arity];
        for (int i = 0; i < partitionKeys.size(); i++) {
            int pos = rowType.indexOf(partitionKeys.get(i));
            if (pos >= 0) {
                texts[pos] = values.get(i);
                known[pos] = true;
            }
        }
        BinaryRowWriter writer = new BinaryRowWriter(arity);
        for (int pos = 0; pos < arity; pos++) {
            DataType type = rowType.type(pos);
            try {
                writer.write(pos, ValueStrings.fromText(texts[pos], type), type);
            } catch (IllegalArgumentException e) {
                known[pos] = false; // not a value of the current type: unknown
                writer.write(pos, null, type);
            }
        }
        BinaryRow row = writer.complete();
        return root.mightMatch(
                p ->
                        p.pos() == rangePos && !known[p.pos()]
                                ? p.mightMatch(range)
                                : !known[p.pos()] || p.test(row));
    }

    /**
     * Whether a file whose primary keys lie within [minKey, maxKey] might hold a row that passes
     * the filter.
     *
     * <p>Keys are ordered lexicographically by column ({@link io.weir.data.KeyFields}), so the
     * range bounds only the first key column: keys between (1, 'z') and (3, 'a') may have any
     * second column. Where the first columns of minKey and maxKey are equal, those columns are
     * fixed and the next column is bounded in turn: keys between (1, 'b') and (1, 'd') have 1 as
     * first column and a second column in ['b', 'd'].
     *
     * @param minKey the smallest key in the file, as texts in primary-key order (empty: unknown)
     * @param maxKey the greatest key in the file
     * @param primaryKey the names of the primary-key columns
     */
    public boolean mightMatchKeyRange(
            List<String> minKey, List<String> maxKey, List<String> primaryKey) {
        ColumnBounds[] bounds = new ColumnBounds[rowType.size()];
        int n = Math.min(primaryKey.size(), Math.min(minKey.size(), maxKey.size()));
        for (int i = 0; i < n; i++) {
            int pos = rowType.indexOf(primaryKey.get(i));
            if (pos < 0) {
                break;
            }
            String lo = minKey.get(i);
            String hi = maxKey.get(i);
            DataType type = rowType.type(pos);
            // nulls sort first: a null min allows nulls, a null max means only nulls
            bounds[pos] =
                    new ColumnBounds(parse(lo, type), parse(hi, type), lo == null, hi != null);
            if (!Objects.equals(lo, hi)) {
                break;
            }
        }
        return root.mightMatch(
                p ->
                        p.mightMatch(
                                bounds[p.pos()] == null ? ColumnBounds.UNKNOWN : bounds[p.pos()]));
    }

    /** A bound in comparison form, or null (unbounded) if absent or not a value of the type. */
    private static Object parse(String text, DataType type) {
        if (text == null) {
            return null;
        }
        try {
            return Literals.toDomain(ValueStrings.fromText(text, type), type);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The bound form: NOT pushed down to the predicates, literals in the columns' types. */
    @Override
    public String toString() {
        return root.toString();
    }
}
