package io.weir.base;

import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.dictionary.IntList;
import org.apache.parquet.column.values.plain.PlainValuesWriter;

import java.util.Arrays;

/**
 * The dictionary of an INT32 or INT64 column: the pages and dictionary pages parquet-java's {@code
 * PlainIntegerDictionaryValuesWriter} and {@code PlainLongDictionaryValuesWriter} write, byte for
 * byte (ids in order of first appearance), with the lookup of each value in an open-addressing
 * table of plain arrays instead of fastutil's linked hash map, whose lookup is the larger part of
 * writing such a column. Everything else (the ids' encoding, the fallback to plain values, the
 * dictionary's limits) is parquet-java's {@link DictionaryValuesWriter}.
 */
final class IntegerDictionaryWriter extends DictionaryValuesWriter {
    /**
     * About as small as fastutil's first table (32): a file of a few rows holds many such chunks.
     */
    private static final int INITIAL_SLOTS = 16;

    private final boolean longValues;

    /** Values by slot; a slot is taken when its {@link #slotIds} entry is not 0. */
    private long[] slotValues = new long[INITIAL_SLOTS];

    /** One more than the id of the value in the same slot; 0 for a free slot. */
    private int[] slotIds = new int[INITIAL_SLOTS];

    /** 64 minus the bits of a slot number: a value's slot is the top bits of its hash. */
    private int shift = 64 - Integer.numberOfTrailingZeros(INITIAL_SLOTS);

    /** The dictionary's values by id. */
    private long[] entries = new long[INITIAL_SLOTS / 2];

    private int size;

    /** A dictionary of INT64 values (8 bytes each) or, with {@code longValues} false, INT32. */
    IntegerDictionaryWriter(
            boolean longValues, int maxDictionaryByteSize, ByteBufferAllocator allocator) {
        super(
                maxDictionaryByteSize,
                Encoding.PLAIN_DICTIONARY,
                Encoding.PLAIN_DICTIONARY,
                allocator);
        this.longValues = longValues;
    }

    @Override
    public void writeInteger(int v) {
        encodedValues.add(idOf(v));
    }

    @Override
    public void writeLong(long v) {
        encodedValues.add(idOf(v));
    }

    private int idOf(long value) {
        int mask = slotIds.length - 1;
        int slot = slotOf(value);
        while (true) {
            int id = slotIds[slot];
            if (id == 0) {
                return add(value, slot);
            }
            if (slotValues[slot] == value) {
                return id - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * Fibonacci hashing: the product's top bits depend on every bit of the value, so that
     * timestamps a millisecond apart spread over the table.
     */
    private int slotOf(long value) {
        return (int) ((value * 0x9E3779B97F4A7C15L) >>> shift);
    }

    private int add(long value, int slot) {
        int id = size++;
        if (id == entries.length) {
            entries = Arrays.copyOf(entries, 2 * id);
        }
        entries[id] = value;
        slotValues[slot] = value;
        slotIds[slot] = id + 1;
        dictionaryByteSize += longValues ? Long.BYTES : Integer.BYTES;
        if (2 * size > slotIds.length) {
            rehash(2 * slotIds.length);
        }
        return id;
    }

    private void rehash(int slots) {
        slotValues = new long[slots];
        slotIds = new int[slots];
        shift = 64 - Integer.numberOfTrailingZeros(slots);
        int mask = slots - 1;
        for (int id = 0; id < size; id++) {
            long value = entries[id];
            int slot = slotOf(value);
            while (slotIds[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slotValues[slot] = value;
            slotIds[slot] = id + 1;
        }
    }

    @Override
    public DictionaryPage toDictPageAndClose() {
        if (lastUsedDictionarySize <= 0) {
            return null;
        }
        PlainValuesWriter page =
                new PlainValuesWriter(lastUsedDictionaryByteSize, maxDictionaryByteSize, allocator);
        for (int id = 0; id < lastUsedDictionarySize; id++) {
            write(page, entries[id]);
        }
        return dictPage(page);
    }

    @Override
    public int getDictionarySize() {
        return size;
    }

    @Override
    protected void clearDictionaryContent() {
        Arrays.fill(slotIds, 0);
        size = 0;
    }

    @Override
    public void fallBackDictionaryEncodedData(ValuesWriter writer) {
        IntList.IntIterator ids = encodedValues.iterator();
        while (ids.hasNext()) {
            write(writer, entries[ids.next()]);
        }
    }

    private void write(ValuesWriter writer, long value) {
        if (longValues) {
            writer.writeLong(value);
        } else {
            writer.writeInteger((int) value);
        }
    }
}
