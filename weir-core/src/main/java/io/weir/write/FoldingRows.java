package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.merge.MergeFunction;

/**
 * The keys of a keyed {@link SortedRows}, each folded into one row by the table's {@link
 * MergeFunction}. A key whose result is a retraction is returned as such; dropping it is the
 * caller's choice.
 *
 * <p>The rows of one key are adjacent in the source, so a key is decided by looking one row ahead.
 * Different prefixes mean different keys: most rows need no comparison of the rows themselves.
 */
final class FoldingRows implements SortedRows {
    private final SortedRows source;
    private final KeyFields key;
    private final boolean prefixDetermines;

    /** Created for the source's rows: views if they stay valid, copies otherwise. */
    private final MergeFunction merge;

    private long group;
    private long prefix;
    private boolean primed;
    private boolean sourceHasRow;

    /**
     * @param merge the table's merge function, for rows that stay valid iff the source's do
     */
    FoldingRows(SortedRows source, KeyFields key, MergeFunction merge) {
        this.source = source;
        this.key = key;
        this.prefixDetermines = key.prefixDetermines();
        this.merge = merge;
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
        merge.reset();
        merge.add(source.row());
        while ((sourceHasRow = source.next()) && sameKey()) {
            merge.add(source.row());
        }
        return true;
    }

    private boolean sameKey() {
        return source.group() == group
                && source.prefix() == prefix
                && (prefixDetermines || key.compare(source.row(), merge.result()) == 0);
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
        return merge.result();
    }

    /** Views into a source whose rows stay valid do; the function's own memory does not. */
    @Override
    public boolean rowsStayValid() {
        return source.rowsStayValid() && merge.resultStaysValid();
    }

    @Override
    public void close() {
        source.close();
    }
}
