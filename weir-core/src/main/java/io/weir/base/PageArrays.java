package io.weir.base;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Set;

/**
 * Arrays for decompressed pages. While a row group is decoded column by column, each {@link
 * ColumnDecoder} hands its page's array back when it moves past the page, and the next page is
 * decompressed into it: a scan does not allocate (and the JVM zero) an array per page. Only arrays
 * lent here are taken back, never a page that points into the column chunk's own buffer
 * (uncompressed pages). Pages read by parquet-java's record reader are not lent: it holds on to
 * them.
 */
final class PageArrays {
    private static final int MAX_FREE = 4;

    private final ArrayDeque<byte[]> free = new ArrayDeque<>();
    private final Set<byte[]> lent = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean lending;

    /**
     * Starts a row group: lends arrays if its pages are read by the column decoders, and forgets
     * arrays lent before.
     */
    void lend(boolean lending) {
        this.lending = lending;
        lent.clear();
    }

    /** An array of at least {@code size} bytes for one page. */
    byte[] take(int size) {
        if (!lending) {
            return new byte[size];
        }
        byte[] array = null;
        for (Iterator<byte[]> it = free.iterator(); it.hasNext(); ) {
            byte[] candidate = it.next();
            if (candidate.length >= size) {
                it.remove();
                array = candidate;
                break;
            }
        }
        if (array == null) {
            array = new byte[size + (size >>> 4)]; // a column's next pages are a little larger
        }
        lent.add(array);
        return array;
    }

    /** Takes back an array once nothing reads it; ignores arrays this pool did not lend. */
    void giveBack(byte[] array) {
        if (array != null && lent.remove(array)) {
            if (free.size() == MAX_FREE) {
                free.removeFirst();
            }
            free.addLast(array);
        }
    }
}
