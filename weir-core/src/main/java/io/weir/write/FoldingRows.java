package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.read.RowBuffer;

/**
 * The winners of a keyed {@link SortedRows}: one row per key, the one that wins on read with the
 * deduplicate engine: the latest, or, with a sequence field, the greatest value of it (nulls lose,
 * ties go to the latest). A winning delete is returned as such; dropping it is the caller's choice.
 *
 * <p>The rows of one key are adjacent in the source, so a key is decided by looking one row ahead.
 * Different prefixes mean different keys: most rows need no comparison of the rows themselves.
 */
final class FoldingRows implements SortedRows {
    private final SortedRows source;
    private final KeyFields key;
    private final KeyFields sequenceField;
    private final boolean prefixDetermines;

    /** The winner so far: a copy, unless the source's rows stay valid (then a view). */
    private final RowBuffer copy;

    private final BinaryRow view;

    private final boolean copies;
    private BinaryRow winner;
    private long group;
    private long prefix;
    private boolean primed;
    private boolean sourceHasRow;

    FoldingRows(SortedRows source, KeyFields key, KeyFields sequenceField, int arity) {
        this.source = source;
        this.key = key;
        this.sequenceField = sequenceField;
        this.prefixDetermines = key.prefixDetermines();
        this.copies = !source.rowsStayValid();
        this.copy = copies ? new RowBuffer(arity) : null;
        this.view = new BinaryRow(arity);
    }

    @Override
    public boolean next() {
        if (!primed) {
            primed = true;
            sourceHasRow = source.next();
        }
        if (!sourceHasRow) {
            return false;
        }
        // The source is at the first row of a key.
        group = source.group();
        prefix = source.prefix();
        take();
        while ((sourceHasRow = source.next()) && sameKey()) {
            if (sequenceField == null || sequenceField.compare(source.row(), winner) >= 0) {
                take();
            }
        }
        return true;
    }

    private boolean sameKey() {
        return source.group() == group
                && source.prefix() == prefix
                && (prefixDetermines || key.compare(source.row(), winner) == 0);
    }

    private void take() {
        BinaryRow row = source.row();
        winner =
                copies ? copy.set(row) : view.pointTo(row.bytes(), row.offset(), row.sizeInBytes());
    }

    @Override
    public long group() {
        return group;
    }

    @Override
    public long prefix() {
        return prefix;
    }

    @Override
    public BinaryRow row() {
        return winner;
    }

    /** A copy is overwritten by the next key's winner; a view into the source stays valid. */
    @Override
    public boolean rowsStayValid() {
        return source.rowsStayValid();
    }

    @Override
    public void close() {
        source.close();
    }
}
