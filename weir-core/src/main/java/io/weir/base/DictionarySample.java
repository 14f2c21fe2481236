package io.weir.base;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.types.RowType;

import org.apache.parquet.column.values.ValuesWriter;

import java.util.Arrays;

/**
 * The first rows of a base file, held back until the writer knows which columns to
 * dictionary-encode. Parquet's writer tries a dictionary on every column and gives up only when the
 * dictionary outgrows its page limit or the first page is done: on a column of mostly distinct
 * values (ids, random strings, metrics) that trial is most of the cost of writing the file. Like
 * ORC's early dictionary check, this decides per column from the sample instead: a column whose
 * non-null sampled values (at least {@link #MIN_VALUES}) are more than {@link #MAX_DISTINCT_SHARE}
 * distinct is written plain; any other keeps Parquet's dictionary and its fallback.
 *
 * <p>A plain column of integers (INT32 or INT64) is written DELTA_BINARY_PACKED instead where that
 * saves at least an eighth of its plain size on the sample ({@link #deltaColumns}; the rule of
 * compression, {@link io.weir.util.Compressibility}): keys in key order, counters, times and small
 * numbers in wide types take a few bits a value, and a page that is already small costs the
 * compressor nothing (it is then stored uncompressed). An integer column left to the dictionary is
 * written DELTA_BINARY_PACKED too where that takes no more bytes on the sample than the dictionary
 * (its ids and its page): times of a few seconds of ingestion, in key order, are such a column, and
 * their deltas cost a fraction of the CPU of a dictionary's lookups, to write and to read.
 *
 * <p>The sample ends at {@link #MAX_ROWS} rows or at its byte limit, whichever comes first: at most
 * {@link #MAX_BYTES}, and small against the file (16 Parquet pages), since a writer cuts files by a
 * size that counts the sample's bytes uncompressed.
 */
final class DictionarySample {
    static final int MAX_ROWS = 10_000;
    static final int MAX_BYTES = 4 << 20;
    static final double MAX_DISTINCT_SHARE = 0.8;

    /** Fewer non-null values than this say too little: Parquet's own check decides. */
    static final int MIN_VALUES = 100;

    private final RowType rowType;
    private byte[] bytes = new byte[64 << 10];
    private int[] ends = new int[256];
    private int rows;
    private int size;

    private final int maxBytes;

    /** A sample of rows of {@code rowType} for a file of Parquet pages of {@code pageSize}. */
    DictionarySample(RowType rowType, int pageSize) {
        this.rowType = rowType;
        this.maxBytes = (int) Math.min(MAX_BYTES, 16L * pageSize);
    }

    /** Copies a row into the sample; true when the sample is full. */
    boolean add(BinaryRow row) {
        int length = row.sizeInBytes();
        if (bytes.length - size < length) {
            bytes = Arrays.copyOf(bytes, Math.max(size + length, 2 * bytes.length));
        }
        if (rows == ends.length) {
            ends = Arrays.copyOf(ends, 2 * rows);
        }
        row.copyTo(bytes, size);
        size += length;
        ends[rows++] = size;
        return rows >= MAX_ROWS || size >= maxBytes;
    }

    /** Bytes held. */
    long size() {
        return size;
    }

    /** For each column, whether the sample says to write it without a dictionary. */
    boolean[] plainColumns() {
        boolean[] plain = new boolean[rowType.size()];
        int[] table = new int[Integer.highestOneBit(Math.max(rows, 1)) * 4];
        BinaryRow row = new BinaryRow(rowType.size());
        for (int c = 0; c < plain.length; c++) {
            KeyFields column = KeyFields.of(rowType, new int[] {c});
            Arrays.fill(table, 0);
            int values = 0;
            int distinct = 0;
            for (int r = 0; r < rows; r++) {
                pointTo(row, r);
                if (row.isNullAt(c)) {
                    continue;
                }
                values++;
                if (insert(table, column.hash(row))) {
                    distinct++;
                }
            }
            plain[c] = values >= MIN_VALUES && distinct > MAX_DISTINCT_SHARE * values;
        }
        return plain;
    }

    /**
     * For each column, whether to write it DELTA_BINARY_PACKED: a column whose Parquet type is an
     * integer and whose sampled non-null values, in order, so encoded ({@link #deltaBytes}) take at
     * most 7/8 of their plain size if the column is {@code plain}, or no more than their dictionary
     * encoding ({@link #dictionaryBytes}) if it is not.
     *
     * <p>The sample's dictionary holds fewer values than the file's will, over fewer rows, so that
     * on columns whose values repeat across the file it costs more per row than the file's; on the
     * columns this turns to deltas (values spread over a range, about as many distinct as the
     * sample's rows) the file's deltas stay within a few percent of its dictionary.
     */
    boolean[] deltaColumns(RowShredder shredder, boolean[] plain) {
        boolean[] delta = new boolean[rowType.size()];
        long[] values = new long[rows];
        BinaryRow row = new BinaryRow(rowType.size());
        for (int c = 0; c < delta.length; c++) {
            int width = shredder.integerWidth(c);
            if (width == 0) {
                continue;
            }
            int n = 0;
            for (int r = 0; r < rows; r++) {
                pointTo(row, r);
                if (!row.isNullAt(c)) {
                    values[n++] = shredder.integer(row, c);
                }
            }
            if (n == 0) {
                continue;
            }
            long deltaBytes = deltaBytes(values, n, width);
            delta[c] =
                    plain[c]
                            ? deltaBytes * 8 <= (long) n * (width / 8) * 7
                            : deltaBytes <= dictionaryBytes(values, n, width);
        }
        return delta;
    }

    /**
     * The size of {@code n} values of {@code width} bits (32 or 64) as a dictionary: the page of
     * ids and the dictionary page that {@link IntegerDictionaryWriter}, which writes them, makes of
     * them.
     */
    static long dictionaryBytes(long[] values, int n, int width) {
        // A limit the sample's dictionary cannot pass; it also sizes the id encoder's slabs, whose
        // smallest (64 bytes) must fit within it.
        int limit = Math.max(n * (width / 8), 64 << 10);
        IntegerDictionaryWriter writer =
                new IntegerDictionaryWriter(width == 64, limit, new SlabAllocator());
        try {
            writeAll(writer, values, n, width);
            long ids = writer.getBytes().size();
            return ids + writer.toDictPageAndClose().getBytes().size();
        } finally {
            writer.close();
        }
    }

    /**
     * The size of {@code n} values of {@code width} bits (32 or 64) as DELTA_BINARY_PACKED: what
     * {@link IntegerDeltaWriter}, which writes them, makes of them.
     */
    static long deltaBytes(long[] values, int n, int width) {
        IntegerDeltaWriter writer = new IntegerDeltaWriter(width == 64, LargeArrays.MIN_SIZE);
        try {
            writeAll(writer, values, n, width);
            return writer.getBytes().size();
        } finally {
            writer.close();
        }
    }

    /** Writes the first {@code n} values as INT64 ({@code width} 64) or INT32 values. */
    private static void writeAll(ValuesWriter writer, long[] values, int n, int width) {
        for (int i = 0; i < n; i++) {
            if (width == 64) {
                writer.writeLong(values[i]);
            } else {
                writer.writeInteger((int) values[i]);
            }
        }
    }

    /** The number of rows held. */
    int rowCount() {
        return rows;
    }

    /** Points {@code row} at sampled row {@code r} (0-based, in the order added). */
    BinaryRow pointTo(BinaryRow row, int r) {
        int start = r == 0 ? 0 : ends[r - 1];
        return row.pointTo(bytes, start, ends[r] - start);
    }

    /**
     * Adds a 32-bit hash to an open-addressing set of non-zero slots; true if it was new. Equal
     * hashes count as one value: with at most {@link #MAX_ROWS} values a collision is rare, and it
     * only makes a column look less distinct (towards Parquet's own choice).
     */
    private static boolean insert(int[] table, int hash) {
        int stored = hash == 0 ? 1 : hash;
        int mask = table.length - 1;
        for (int i = (stored * 0x9E3779B9) >>> 7 & mask; ; i = (i + 1) & mask) {
            if (table[i] == stored) {
                return false;
            }
            if (table[i] == 0) {
                table[i] = stored;
                return true;
            }
        }
    }
}
