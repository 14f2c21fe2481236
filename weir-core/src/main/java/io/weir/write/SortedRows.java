package io.weir.write;

import io.weir.data.BinaryRow;

/**
 * A stream of rows in write order: by group ({@code partitionId << 32 | bucket}), then, for a keyed
 * table, by key, then by arrival (among rows of one key the latest comes last). What a {@link
 * SortBuffer} yields, a spilled run holds, and a merge of runs yields. Usage: {@code while
 * (rows.next()) {...}}.
 */
interface SortedRows extends AutoCloseable {

    /** Moves to the next row; false when there is none. */
    boolean next();

    /** The current row's group: {@code partitionId << 32 | bucket}, ordered as a signed long. */
    long group();

    /** The current row's {@link io.weir.data.KeyFields#normalizedPrefix} (0 without a key). */
    long prefix();

    /** The current row: a view, valid until the next {@link #next()} at least. */
    BinaryRow row();

    /**
     * Whether the views of {@link #row()} stay valid after {@link #next()}, until the source is
     * closed or cleared (rows in buffer pages); otherwise a caller that keeps a row copies it.
     */
    boolean rowsStayValid();

    /** Releases the source's files and buffers. */
    @Override
    default void close() {}
}
