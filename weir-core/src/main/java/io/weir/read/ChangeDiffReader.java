package io.weir.read;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.expressions.BoundExpression;
import io.weir.types.RowType;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The net changes between two merged states of one file group, both sorted by primary key: +I for a
 * key only after, -D for a key only before, -U and +U for a key whose (projected) row changed. With
 * a filter, changes are those of the filtered view: a row that stops matching is a -D, one that
 * starts matching a +I.
 */
public final class ChangeDiffReader implements RowReader {
    private final RowReader before;
    private final RowReader after;
    private final KeyFields key;
    private final BoundExpression filter;
    private final RowProjection oldProjection;
    private final RowProjection newProjection;
    private boolean hasBefore;
    private boolean hasAfter;
    private BinaryRow current;
    private BinaryRow pendingUpdateAfter;

    public ChangeDiffReader(
            RowReader before,
            RowReader after,
            RowType rowType,
            KeyFields key,
            BoundExpression filter,
            int[] projection) {
        this.before = before;
        this.after = after;
        this.key = key;
        this.filter = filter == null || filter.isAlwaysTrue() ? null : filter;
        // Always project, also onto all columns: the copy is canonical, so equal values compare
        // equal as bytes whichever writer produced the rows.
        int[] positions =
                projection != null ? projection : IntStream.range(0, rowType.size()).toArray();
        this.oldProjection = new RowProjection(rowType, positions, null);
        this.newProjection = new RowProjection(rowType, positions, null);
        this.hasBefore = before.next();
        this.hasAfter = after.next();
    }

    @Override
    public boolean next() {
        if (pendingUpdateAfter != null) {
            current = pendingUpdateAfter;
            pendingUpdateAfter = null;
            return true;
        }
        while (hasBefore || hasAfter) {
            int c = !hasBefore ? 1 : !hasAfter ? -1 : key.compare(before.row(), after.row());
            if (c < 0) {
                BinaryRow old = before.row();
                boolean emit = matches(old);
                BinaryRow projected = emit ? project(oldProjection, old, RowKind.DELETE) : null;
                hasBefore = before.next();
                if (emit) {
                    current = projected;
                    return true;
                }
            } else if (c > 0) {
                BinaryRow row = after.row();
                boolean emit = matches(row);
                BinaryRow projected = emit ? project(newProjection, row, RowKind.INSERT) : null;
                hasAfter = after.next();
                if (emit) {
                    current = projected;
                    return true;
                }
            } else {
                BinaryRow old = before.row();
                BinaryRow row = after.row();
                boolean oldMatches = matches(old);
                boolean newMatches = matches(row);
                BinaryRow o =
                        oldMatches ? project(oldProjection, old, RowKind.UPDATE_BEFORE) : null;
                BinaryRow n = newMatches ? project(newProjection, row, RowKind.UPDATE_AFTER) : null;
                hasBefore = before.next();
                hasAfter = after.next();
                if (o != null && n != null) {
                    if (!sameValues(o, n)) {
                        current = o;
                        pendingUpdateAfter = n;
                        return true;
                    }
                } else if (o != null) {
                    o.setRowKind(RowKind.DELETE);
                    current = o;
                    return true;
                } else if (n != null) {
                    n.setRowKind(RowKind.INSERT);
                    current = n;
                    return true;
                }
            }
        }
        return false;
    }

    private boolean matches(BinaryRow row) {
        return filter == null || filter.test(row);
    }

    private static BinaryRow project(RowProjection projection, BinaryRow row, RowKind kind) {
        BinaryRow projected = projection.apply(row);
        projected.setRowKind(kind);
        return projected;
    }

    /** Equal field values: the canonical bytes after the row kind byte are equal. */
    private static boolean sameValues(BinaryRow a, BinaryRow b) {
        return Arrays.equals(
                a.bytes(),
                a.offset() + 1,
                a.offset() + a.sizeInBytes(),
                b.bytes(),
                b.offset() + 1,
                b.offset() + b.sizeInBytes());
    }

    @Override
    public BinaryRow row() {
        return current;
    }

    @Override
    public void close() {
        try {
            before.close();
        } finally {
            after.close();
        }
    }
}
