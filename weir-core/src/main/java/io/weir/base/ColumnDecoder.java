package io.weir.base;

import io.weir.data.BinaryRowWriter;
import io.weir.util.LittleEndian;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.io.ParquetDecodingException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

/**
 * Decodes one column of a flat Parquet row group, page by page, and writes its values into rows.
 *
 * <p>A page's definition levels and dictionary ids are decoded at once into int arrays ({@link
 * HybridDecoder}); plain values are read straight from the page's bytes as each row is written. So
 * a value costs an array read and a write into the row, with no {@code Binary}, no boxing and no
 * virtual call per level. Handles data pages v1 and v2 with PLAIN or dictionary values (and RLE
 * booleans), and DELTA_BINARY_PACKED integers, which are decoded a page at a time ({@link
 * DeltaDecoder}); {@link #ENCODINGS} is what a column chunk may use to be read this way.
 *
 * <p>Subclasses, one per physical type ({@link ColumnDecoders}), read the dictionary and write one
 * value. Malformed pages fail with a {@link ParquetDecodingException}; never a silent wrong value.
 */
abstract class ColumnDecoder {
    /** The encodings of a column chunk (levels and values) that this decoder reads. */
    static final Set<Encoding> ENCODINGS =
            EnumSet.of(
                    Encoding.PLAIN,
                    Encoding.PLAIN_DICTIONARY,
                    Encoding.RLE_DICTIONARY,
                    Encoding.RLE,
                    Encoding.BIT_PACKED,
                    Encoding.DELTA_BINARY_PACKED);

    /** Whether a decoder reads the column: a top-level column, neither repeated nor nested. */
    static boolean decodes(ColumnDescriptor column) {
        return column.getMaxRepetitionLevel() == 0 && column.getPath().length == 1;
    }

    /** The field of the row this column fills. */
    final int pos;

    private final ColumnDescriptor column;
    private final int maxDefinition;
    private final int levelBitWidth;
    private PageReader pages;
    private PageArrays arrays;
    private boolean hasDictionary;
    private int dictionarySize;
    private int valuesLeftInPage;
    private int[] levels = new int[0];
    private int levelIndex;
    // How the current page's values are read: from the page, by dictionary id, or decoded ahead.
    private static final byte PLAIN_VALUES = 0;
    private static final byte DICTIONARY_IDS = 1;
    private static final byte DECODED_VALUES = 2;
    private byte values;
    private int[] ids = new int[0];
    private int idIndex;
    private DeltaDecoder deltas;
    private long[] decoded = new long[0];
    private int decodedIndex;

    /** The current page's bytes; plain values are read from {@link #offset} up to {@link #end}. */
    byte[] data;

    int offset;
    int end;

    ColumnDecoder(ColumnDescriptor column, int pos) {
        this.column = column;
        this.pos = pos;
        this.maxDefinition = column.getMaxDefinitionLevel();
        this.levelBitWidth = 32 - Integer.numberOfLeadingZeros(maxDefinition);
    }

    /**
     * Starts the column chunk of a new row group, reading its dictionary page if it has one. Pages
     * read are handed back to {@code arrays}.
     */
    final void open(PageReader pages, PageArrays arrays) {
        this.pages = pages;
        this.arrays = arrays;
        this.valuesLeftInPage = 0;
        DictionaryPage dictionary = pages.readDictionaryPage();
        hasDictionary = dictionary != null;
        dictionarySize = hasDictionary ? dictionary.getDictionarySize() : 0;
        if (hasDictionary) {
            Encoding encoding = dictionary.getEncoding();
            if (encoding != Encoding.PLAIN && encoding != Encoding.PLAIN_DICTIONARY) {
                throw unsupported("dictionary page encoding " + encoding);
            }
            ByteBuffer bytes = buffer(dictionary.getBytes());
            readDictionary(
                    bytes.array(),
                    bytes.arrayOffset() + bytes.position(),
                    bytes.arrayOffset() + bytes.limit(),
                    dictionary.getDictionarySize());
            arrays.giveBack(bytes.array()); // the entries were copied
        }
    }

    /** Hands back the current page: the row group is done. */
    final void release() {
        if (arrays != null) {
            arrays.giveBack(data);
        }
        data = null;
        valuesLeftInPage = 0;
    }

    /** Writes the column's next value (or null) into the row. */
    final void write(BinaryRowWriter writer) {
        if (valuesLeftInPage == 0) {
            nextPage();
        }
        valuesLeftInPage--;
        if (maxDefinition != 0 && levels[levelIndex++] != maxDefinition) {
            writer.setNullAt(pos);
        } else if (values == DICTIONARY_IDS) {
            writeEntry(writer, ids[idIndex++]);
        } else if (values == DECODED_VALUES) {
            writeDecoded(writer, decoded[decodedIndex++]);
        } else {
            writePlain(writer);
        }
    }

    private void nextPage() {
        arrays.giveBack(data);
        data = null;
        DataPage page;
        do {
            page = pages.readPage();
            if (page == null) {
                throw new ParquetDecodingException(
                        "Column " + column + " ends before the last row of its row group");
            }
        } while (page.getValueCount() == 0);
        int count = page.getValueCount();
        if (levels.length < count) {
            levels = new int[Math.max(count, 2 * levels.length)];
        }
        levelIndex = 0;
        idIndex = 0;
        decodedIndex = 0;
        Encoding encoding;
        if (page instanceof DataPageV1 v1) {
            ByteBuffer bytes = buffer(v1.getBytes());
            setData(bytes);
            offset = readLevelsV1(v1.getDlEncoding(), count);
            encoding = v1.getValueEncoding();
        } else if (page instanceof DataPageV2 v2) {
            if (v2.getRepetitionLevels().size() != 0) {
                throw unsupported("repetition levels");
            }
            if (maxDefinition != 0) {
                ByteBuffer defs = buffer(v2.getDefinitionLevels());
                int from = defs.arrayOffset() + defs.position();
                HybridDecoder.decode(
                        defs.array(),
                        from,
                        defs.arrayOffset() + defs.limit(),
                        levelBitWidth,
                        levels,
                        count);
            }
            setData(buffer(v2.getData()));
            encoding = v2.getDataEncoding();
        } else {
            throw unsupported("page " + page);
        }
        int nonNull = count;
        if (maxDefinition != 0) {
            nonNull = 0;
            for (int i = 0; i < count; i++) {
                if (levels[i] == maxDefinition) {
                    nonNull++;
                }
            }
        }
        readValues(encoding, nonNull);
        valuesLeftInPage = count;
    }

    private int readLevelsV1(Encoding encoding, int count) {
        if (maxDefinition == 0) {
            return offset; // no levels stored
        }
        if (encoding == Encoding.RLE) {
            if (end - offset < 4) {
                throw new ParquetDecodingException("Page of " + column + " ends in its levels");
            }
            int length = LittleEndian.getInt(data, offset);
            int from = offset + 4;
            if (length < 0 || length > end - from) {
                throw new ParquetDecodingException(
                        "Levels of " + length + " bytes in a page of " + column + " with less");
            }
            HybridDecoder.decode(data, from, from + length, levelBitWidth, levels, count);
            return from + length;
        } else if (encoding == Encoding.BIT_PACKED) {
            return HybridDecoder.decodeBitPacked(data, offset, end, levelBitWidth, levels, count);
        }
        throw unsupported("definition level encoding " + encoding);
    }

    private void readValues(Encoding encoding, int nonNull) {
        switch (encoding) {
            case PLAIN -> {
                values = PLAIN_VALUES;
                startPlain(nonNull);
            }
            case DELTA_BINARY_PACKED -> {
                int width = integerWidth();
                if (width == 0) {
                    throw unsupported("value encoding " + encoding);
                }
                if (deltas == null) {
                    deltas = new DeltaDecoder(column.toString(), width);
                }
                if (decoded.length < nonNull) {
                    decoded = new long[Math.max(nonNull, 2 * decoded.length)];
                }
                deltas.decode(data, offset, end, decoded, nonNull);
                values = DECODED_VALUES;
            }
            case PLAIN_DICTIONARY, RLE_DICTIONARY -> {
                if (!hasDictionary) {
                    throw new ParquetDecodingException(
                            "Dictionary-encoded page of " + column + " without a dictionary page");
                }
                if (offset >= end && nonNull > 0) {
                    throw new ParquetDecodingException("Page of " + column + " has no ids");
                }
                int bitWidth = nonNull == 0 ? 0 : data[offset];
                decodeIds(offset + 1, end, bitWidth, nonNull);
                checkIds(nonNull);
            }
            case RLE -> {
                if (!acceptsRleValues()) {
                    throw unsupported("value encoding RLE");
                }
                // RLE booleans: a 4-byte length, then runs of 1-bit values, served as "ids" 0 and
                // 1.
                // The runs must end within that length, as parquet-java reads them.
                if (end - offset < 4) {
                    throw new ParquetDecodingException("Page of " + column + " ends in its length");
                }
                int length = LittleEndian.getInt(data, offset);
                int from = offset + 4;
                if (length < 0 || length > end - from) {
                    throw new ParquetDecodingException(
                            "RLE values of "
                                    + length
                                    + " bytes in a page of "
                                    + column
                                    + " with less");
                }
                decodeIds(from, from + length, 1, nonNull);
            }
            default -> throw unsupported("value encoding " + encoding);
        }
    }

    private void decodeIds(int from, int to, int bitWidth, int count) {
        if (ids.length < count) {
            ids = new int[Math.max(count, 2 * ids.length)];
        }
        if (count > 0) {
            HybridDecoder.decode(data, from, to, bitWidth, ids, count);
        }
        values = DICTIONARY_IDS;
    }

    /** Checks, once per page rather than per value, that every id is an entry of the dictionary. */
    private void checkIds(int count) {
        for (int i = 0; i < count; i++) {
            if (Integer.compareUnsigned(ids[i], dictionarySize) >= 0) {
                throw new ParquetDecodingException(
                        "Page of "
                                + column
                                + " has dictionary id "
                                + Integer.toUnsignedString(ids[i])
                                + ", the dictionary "
                                + dictionarySize
                                + " entries");
            }
        }
    }

    private void setData(ByteBuffer bytes) {
        data = bytes.array();
        offset = bytes.arrayOffset() + bytes.position();
        end = bytes.arrayOffset() + bytes.limit();
    }

    /** The bytes as a heap buffer (decompressed pages already are one: no copy). */
    private ByteBuffer buffer(BytesInput input) {
        try {
            ByteBuffer bytes = input.toByteBuffer();
            return bytes.hasArray() ? bytes : ByteBuffer.wrap(input.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Checks that a page of {@code count} values of {@code width} bytes each fits the page's bytes,
     * so the plain reads need no check per value.
     */
    final void checkPlainSize(int count, int width) {
        if ((long) count * width > end - offset) {
            throw new ParquetDecodingException(
                    "Page of "
                            + column
                            + " has "
                            + (end - offset)
                            + " bytes of values, "
                            + count
                            + " values need "
                            + (long) count * width);
        }
    }

    final ParquetDecodingException unsupported(String what) {
        return new ParquetDecodingException("Cannot decode " + what + " of column " + column);
    }

    final ColumnDescriptor column() {
        return column;
    }

    /** Reads a dictionary page's {@code size} PLAIN values from {@code data[from, to)}. */
    abstract void readDictionary(byte[] data, int from, int to, int size);

    /** Prepares to read {@code count} PLAIN values from {@link #offset}. */
    abstract void startPlain(int count);

    /** Writes the next PLAIN value (advancing {@link #offset}). */
    abstract void writePlain(BinaryRowWriter writer);

    /** Writes the dictionary's entry {@code id}. */
    abstract void writeEntry(BinaryRowWriter writer, int id);

    /**
     * The bits of the integers this column's DELTA_BINARY_PACKED values hold (32 for INT32, 64 for
     * INT64), or 0 if its values cannot be so encoded.
     */
    int integerWidth() {
        return 0;
    }

    /** Writes a value decoded a page at a time (DELTA_BINARY_PACKED; see {@link #integerWidth}). */
    void writeDecoded(BinaryRowWriter writer, long value) {
        throw new IllegalStateException("No decoded values in " + column);
    }

    /** Whether values may be RLE-encoded (booleans only). */
    boolean acceptsRleValues() {
        return false;
    }
}
