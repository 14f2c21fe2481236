package io.weir.flink.lookup;

import io.weir.data.BinaryRow;

import java.util.Arrays;
import java.util.HashMap;

/**
 * The changes of later commits over a file group's {@link LookupIndex}, on the heap, for a join key
 * that holds the primary key (one row per key): the latest row of each changed key, or {@link
 * #DELETED}. Keys are compared as the index compares them (their bytes after the row-kind byte). A
 * lookup probes with a reused key object: no allocation.
 */
final class Overlay {
    /** The value of a deleted key. */
    static final byte[] DELETED = new byte[0];

    /** Heap bytes of an entry besides its key and row: the map node, the key object, headers. */
    private static final int ENTRY_OVERHEAD = 96;

    private final HashMap<Key, byte[]> rows = new HashMap<>();
    private final Key probe = new Key();
    private long bytes;

    /** Sets the row of a key (a copy is kept, with kind +I), or deletes the key if row is null. */
    void put(BinaryRow key, int hash, BinaryRow row) {
        Key k = new Key();
        k.bytes = Arrays.copyOfRange(key.bytes(), key.offset(), key.offset() + key.sizeInBytes());
        k.length = k.bytes.length;
        k.hash = hash;
        byte[] value = DELETED;
        if (row != null) {
            value = Arrays.copyOfRange(row.bytes(), row.offset(), row.offset() + row.sizeInBytes());
            value[0] = 0; // +I: the join returns rows as inserts
        }
        byte[] old = rows.put(k, value);
        bytes += value.length;
        if (old == null) {
            bytes += k.length + ENTRY_OVERHEAD;
        } else {
            bytes -= old.length;
        }
    }

    /** The row of a key, {@link #DELETED}, or null if the overlay does not know the key. */
    byte[] get(BinaryRow key, int hash) {
        probe.bytes = key.bytes();
        probe.offset = key.offset();
        probe.length = key.sizeInBytes();
        probe.hash = hash;
        byte[] row = rows.get(probe);
        probe.bytes = null;
        return row;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    int size() {
        return rows.size();
    }

    /** An estimate of the heap the overlay holds. */
    long bytes() {
        return bytes;
    }

    private static final class Key {
        byte[] bytes;
        int offset;
        int length;
        int hash;

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k
                    && k.length == length
                    && Arrays.equals(
                            bytes,
                            offset + 1,
                            offset + length,
                            k.bytes,
                            k.offset + 1,
                            k.offset + length);
        }
    }
}
