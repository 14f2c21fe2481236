package io.weir.base;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.BinaryStatistics;
import org.apache.parquet.column.statistics.IntStatistics;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesWriter;
import org.apache.parquet.io.ParquetEncodingException;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveComparator;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * Writes one column of a flat schema (no repetition, a definition level of 0 or 1) into format 1.0
 * data pages: the pages, statistics and size statistics of parquet-java's {@code ColumnWriterV1},
 * with less work per value. parquet-java calls a repetition-level writer, a definition-level
 * encoder, a statistics object, a size-statistics builder and a bloom filter for every value, each
 * through an interface; here:
 *
 * <ul>
 *   <li>a flat column has no repetition levels, and its definition levels are counted while a page
 *       has no null. A page without nulls ends with the one RLE run parquet-java's encoder writes
 *       for it; the first null in a page replays the levels before it into that encoder, which then
 *       takes the page's levels as they come. (Until it emits a run, the encoder buffers nothing,
 *       so the page sizes seen by {@link FlatColumnStore} are parquet-java's.)
 *   <li>the minimum and maximum of signed INT32 and INT64 columns and of unsigned-lexicographic
 *       BINARY columns are kept as primitives and reused arrays, and become a {@link Statistics}
 *       once per page; other columns update parquet-java's statistics object;
 *   <li>size statistics are counted and built once per page.
 * </ul>
 *
 * <p>{@code ParquetRowWriterTest} holds the files to parquet-java's, byte for byte.
 */
final class FlatColumnWriter {
    private static final byte GENERIC = 0;
    private static final byte INT32 = 1;
    private static final byte INT64 = 2;
    private static final byte UNSIGNED_BYTES = 3;

    private final PrimitiveType type;
    private final PageWriter pages;
    private final ValuesWriter values;

    /** {@link #values} if they are plain from the start: bytes go in without a {@link Binary}. */
    private final ValueWriters.Plain plain;

    /** Definition levels; null when the column is required (it has none). */
    private final ValuesWriter levels;

    private final byte statistics;
    private final boolean binary;
    private final byte[] levelRun = new byte[Integer.BYTES + 6];

    private long rowsWrittenSoFar;

    // The page being written.
    private int valueCount;
    private int nullCount;
    private boolean levelsLive; // a null came: the levels are in the encoder
    private long unencodedBytes;
    private long min;
    private long max;
    private byte[] minBytes = new byte[16];
    private byte[] maxBytes = new byte[16];
    private int minLength;
    private int maxLength;
    private Statistics<?> generic;

    FlatColumnWriter(ColumnDescriptor column, PageWriter pages, ParquetProperties properties) {
        if (column.getMaxRepetitionLevel() != 0 || column.getMaxDefinitionLevel() > 1) {
            throw new IllegalArgumentException("Not a column of a flat schema: " + column);
        }
        this.type = column.getPrimitiveType();
        this.pages = pages;
        this.values = properties.newValuesWriter(column);
        this.plain = values instanceof ValueWriters.Plain p ? p : null;
        ValuesWriter definitionLevels = properties.newDefinitionLevelWriter(column);
        if (column.getMaxDefinitionLevel() == 0) {
            this.levels = null;
        } else if (definitionLevels instanceof RunLengthBitPackingHybridValuesWriter) {
            this.levels = definitionLevels;
        } else {
            throw new IllegalStateException(
                    "Unexpected definition-level writer " + definitionLevels);
        }
        this.binary = type.getPrimitiveTypeName() == PrimitiveTypeName.BINARY;
        PrimitiveTypeName physical = type.getPrimitiveTypeName();
        PrimitiveComparator<?> comparator = type.comparator();
        // Statistics order values by the type's comparator: signed unless annotated unsigned.
        if (physical == PrimitiveTypeName.INT32 && comparator.compare(-1, 0) < 0) {
            this.statistics = INT32;
        } else if (physical == PrimitiveTypeName.INT64 && comparator.compare(-1L, 0L) < 0) {
            this.statistics = INT64;
        } else if (binary
                && comparator == PrimitiveComparator.UNSIGNED_LEXICOGRAPHICAL_BINARY_COMPARATOR) {
            this.statistics = UNSIGNED_BYTES;
        } else {
            this.statistics = GENERIC;
            this.generic = Statistics.createStats(type);
        }
    }

    void write(int value) {
        valueWritten();
        values.writeInteger(value);
        if (statistics == INT32) {
            minMax(value);
        } else {
            generic.updateStats(value);
        }
        valueCount++;
    }

    void write(long value) {
        valueWritten();
        values.writeLong(value);
        if (statistics == INT64) {
            minMax(value);
        } else {
            generic.updateStats(value);
        }
        valueCount++;
    }

    void write(boolean value) {
        valueWritten();
        values.writeBoolean(value);
        generic.updateStats(value);
        valueCount++;
    }

    void write(float value) {
        valueWritten();
        values.writeFloat(value);
        generic.updateStats(value);
        valueCount++;
    }

    void write(double value) {
        valueWritten();
        values.writeDouble(value);
        generic.updateStats(value);
        valueCount++;
    }

    /**
     * A BINARY or FIXED_LEN_BYTE_ARRAY value: {@code length} bytes of {@code bytes}, which the
     * caller may reuse. Plain values and unsigned statistics take the bytes; only a dictionary or
     * parquet-java's statistics get a {@link Binary} view of them.
     */
    void write(byte[] bytes, int offset, int length) {
        valueWritten();
        Binary view = null;
        if (plain != null) {
            plain.writeBytes(bytes, offset, length);
        } else {
            view = Binary.fromReusedByteArray(bytes, offset, length);
            values.writeBytes(view);
        }
        if (statistics == UNSIGNED_BYTES) {
            minMax(bytes, offset, length);
        } else {
            generic.updateStats(
                    view != null ? view : Binary.fromReusedByteArray(bytes, offset, length));
        }
        if (binary) {
            unencodedBytes += length;
        }
        valueCount++;
    }

    void writeNull() {
        if (levels == null) {
            throw new IllegalStateException("A null in required column " + type);
        }
        if (!levelsLive) {
            replayLevels();
        }
        levels.writeInteger(0);
        nullCount++;
        valueCount++;
    }

    private void valueWritten() {
        if (levelsLive) {
            levels.writeInteger(1);
        }
    }

    /** Hands the page's levels so far (all values) to the encoder, which then takes them live. */
    private void replayLevels() {
        for (int i = 0; i < valueCount; i++) {
            levels.writeInteger(1);
        }
        levelsLive = true;
    }

    private void minMax(long value) {
        if (valueCount == nullCount) {
            min = value;
            max = value;
        } else if (value < min) {
            min = value;
        } else if (value > max) {
            max = value;
        }
    }

    private void minMax(byte[] bytes, int offset, int length) {
        int end = offset + length;
        if (valueCount == nullCount) {
            minLength = keep(bytes, offset, length, true);
            maxLength = keep(bytes, offset, length, false);
        } else if (Arrays.compareUnsigned(bytes, offset, end, minBytes, 0, minLength) < 0) {
            minLength = keep(bytes, offset, length, true);
        } else if (Arrays.compareUnsigned(bytes, offset, end, maxBytes, 0, maxLength) > 0) {
            maxLength = keep(bytes, offset, length, false);
        }
    }

    private int keep(byte[] bytes, int offset, int length, boolean asMin) {
        byte[] into = asMin ? minBytes : maxBytes;
        if (into.length < length) {
            into = new byte[Math.max(length, 2 * into.length)];
            if (asMin) {
                minBytes = into;
            } else {
                maxBytes = into;
            }
        }
        System.arraycopy(bytes, offset, into, 0, length);
        return length;
    }

    long rowsWrittenSoFar() {
        return rowsWrittenSoFar;
    }

    int valueCount() {
        return valueCount;
    }

    /** The encoded bytes of the page being written, as parquet-java's column writer counts them. */
    long currentPageBufferedSize() {
        return (levelsLive ? levels.getBufferedSize() : 0) + values.getBufferedSize();
    }

    /** The page being written and the pages of the chunk so far. */
    long totalBufferedSize() {
        return currentPageBufferedSize() + pages.getMemSize();
    }

    void writePage() {
        if (valueCount == 0) {
            throw new ParquetEncodingException("writing empty page");
        }
        try {
            // Flat: one value per row, and no repetition levels (written as nothing, BIT_PACKED).
            pages.writePage(
                    BytesInput.concat(definitionLevels(), values.getBytes()),
                    valueCount,
                    valueCount,
                    pageStatistics(),
                    sizeStatistics(),
                    Encoding.BIT_PACKED,
                    levels == null ? Encoding.BIT_PACKED : levels.getEncoding(),
                    values.getEncoding());
        } catch (IOException e) {
            throw new ParquetEncodingException("could not write page for " + type, e);
        }
        rowsWrittenSoFar += valueCount;
        if (levelsLive) {
            levels.reset();
        }
        values.reset();
        valueCount = 0;
        nullCount = 0;
        levelsLive = false;
        unencodedBytes = 0;
        if (statistics == GENERIC) {
            generic = Statistics.createStats(type);
        }
    }

    private BytesInput definitionLevels() {
        if (levels == null) {
            return BytesInput.empty();
        } else if (levelsLive) {
            return levels.getBytes();
        }
        return BytesInput.from(levelRun, 0, oneRun(levelRun, valueCount));
    }

    /**
     * What parquet-java's {@code RunLengthBitPackingHybridValuesWriter} writes for {@code count}
     * levels of 1 at a bit width of 1: the 4-byte length, then one RLE run (a varint of {@code
     * count << 1} and the value's byte), or, below 8 values, one bit-packed group of 8 (a header of
     * {@code 1 << 1 | 1} and the bits, zero-padded). Returns the size written into {@code out}.
     */
    static int oneRun(byte[] out, int count) {
        int at = Integer.BYTES;
        if (count >= 8) {
            long header = (long) count << 1;
            while ((header & ~0x7FL) != 0) {
                out[at++] = (byte) ((header & 0x7F) | 0x80);
                header >>>= 7;
            }
            out[at++] = (byte) header;
            out[at++] = 1;
        } else {
            out[at++] = (1 << 1) | 1;
            out[at++] = (byte) ((1 << count) - 1);
        }
        int length = at - Integer.BYTES;
        out[0] = (byte) length;
        out[1] = (byte) (length >>> 8);
        out[2] = (byte) (length >>> 16);
        out[3] = (byte) (length >>> 24);
        return at;
    }

    private Statistics<?> pageStatistics() {
        boolean hasValues = valueCount > nullCount;
        Statistics<?> page;
        switch (statistics) {
            case INT32 -> {
                IntStatistics ints = (IntStatistics) Statistics.createStats(type);
                if (hasValues) {
                    ints.setMinMax((int) min, (int) max);
                }
                page = ints;
            }
            case INT64 -> {
                LongStatistics longs = (LongStatistics) Statistics.createStats(type);
                if (hasValues) {
                    longs.setMinMax(min, max);
                }
                page = longs;
            }
            case UNSIGNED_BYTES -> {
                BinaryStatistics bytes = (BinaryStatistics) Statistics.createStats(type);
                if (hasValues) {
                    bytes.setMinMaxFromBytes(
                            Arrays.copyOf(minBytes, minLength), Arrays.copyOf(maxBytes, maxLength));
                }
                page = bytes;
            }
            default -> page = generic;
        }
        page.setNumNulls(nullCount);
        return page;
    }

    /** As parquet-java's builder counts them: the levels of every value, and BINARY's bytes. */
    private SizeStatistics sizeStatistics() {
        List<Long> definitions =
                levels == null
                        ? List.of((long) valueCount)
                        : List.of((long) nullCount, (long) (valueCount - nullCount));
        return new SizeStatistics(
                type, binary ? unencodedBytes : 0, List.of((long) valueCount), definitions);
    }

    /** Writes the dictionary page, if the chunk's values kept one. */
    void finishChunk() {
        DictionaryPage dictionary = values.toDictPageAndClose();
        if (dictionary != null) {
            try {
                pages.writeDictionaryPage(dictionary);
            } catch (IOException e) {
                throw new ParquetEncodingException(
                        "could not write dictionary page for " + type, e);
            }
            values.resetDictionary();
        }
    }

    void close() {
        values.close();
        if (levels != null) {
            levels.close();
        }
    }
}
