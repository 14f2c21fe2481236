package io.weir.util;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * An immutable hash map whose {@link Builder builders} share every slot they do not change, so that
 * a new version of a large map costs its changes plus one copy of the slot array, not a copy of
 * every entry. A table state keeps its live files by path in one: at 10,000 file groups it holds
 * tens of thousands of files, and every commit makes a new state.
 *
 * <p>Each slot is an array of keys and values ({@code k0, v0, k1, v1, ...}) that is never written
 * once a map holds it: a builder replaces a slot's array when it changes the slot. Lookups scan one
 * slot, comparing cached hash codes first; the slot array grows to keep about two entries per slot.
 * Null keys and values are not allowed.
 */
public final class SharedHashMap<K, V> {
    private static final int MIN_SLOTS = 16;
    // A builder doubles the slots above this many entries per slot on average, and build() shrinks
    // them below one entry per two slots (after removals), so the slot array that each builder
    // copies has between a quarter of and twice as many elements as the map has entries.
    private static final int GROW_AT = 4;
    private static final Object[] EMPTY_SLOT = new Object[0];
    private static final SharedHashMap<?, ?> EMPTY = new SharedHashMap<>(emptySlots(MIN_SLOTS), 0);

    private final Object[][] slots;
    private final int size;

    private SharedHashMap(Object[][] slots, int size) {
        this.slots = slots;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    public static <K, V> SharedHashMap<K, V> empty() {
        return (SharedHashMap<K, V>) EMPTY;
    }

    public int size() {
        return size;
    }

    /** The value of {@code key}, or null if the map has none. */
    public V get(Object key) {
        return find(slots, key);
    }

    public boolean containsKey(Object key) {
        return find(slots, key) != null;
    }

    /** Calls {@code action} with every entry, in no particular order. */
    @SuppressWarnings("unchecked")
    public void forEach(BiConsumer<? super K, ? super V> action) {
        for (Object[] slot : slots) {
            for (int i = 0; i < slot.length; i += 2) {
                action.accept((K) slot[i], (V) slot[i + 1]);
            }
        }
    }

    /** A builder that starts from this map and leaves it unchanged. */
    public Builder<K, V> toBuilder() {
        return new Builder<>(this);
    }

    private static Object[][] emptySlots(int n) {
        Object[][] slots = new Object[n][];
        Arrays.fill(slots, EMPTY_SLOT);
        return slots;
    }

    private static int slotOf(int hash, int slotCount) {
        return (hash ^ (hash >>> 16)) & (slotCount - 1);
    }

    /** The index of {@code key} in its slot array, or -1. */
    private static int indexIn(Object[] slot, Object key, int hash) {
        for (int i = 0; i < slot.length; i += 2) {
            Object k = slot[i];
            if (k == key || (k.hashCode() == hash && k.equals(key))) {
                return i;
            }
        }
        return -1;
    }

    @SuppressWarnings("unchecked")
    private static <V> V find(Object[][] slots, Object key) {
        int hash = key.hashCode();
        Object[] slot = slots[slotOf(hash, slots.length)];
        int i = indexIn(slot, key, hash);
        return i < 0 ? null : (V) slot[i + 1];
    }

    /**
     * Changes a copy of a map. Not thread-safe; {@link #build()} hands the slots over to the new
     * map, after which the builder must not be used.
     */
    public static final class Builder<K, V> {
        private Object[][] slots;
        private boolean slotsOwned;
        private int size;
        private boolean built;

        private Builder(SharedHashMap<K, V> from) {
            this.slots = from.slots;
            this.size = from.size;
        }

        public int size() {
            return size;
        }

        public V get(Object key) {
            return find(slots, key);
        }

        /** Maps {@code key} to {@code value}; returns the value it replaced, or null. */
        public V put(K key, V value) {
            return put(key, value, true);
        }

        /** Maps {@code key} to {@code value} unless it has a value; returns that value, or null. */
        public V putIfAbsent(K key, V value) {
            return put(key, value, false);
        }

        /** Removes {@code key}; returns the value it had, or null. */
        @SuppressWarnings("unchecked")
        public V remove(Object key) {
            checkNotBuilt();
            int hash = key.hashCode();
            int s = slotOf(hash, slots.length);
            Object[] slot = slots[s];
            int i = indexIn(slot, key, hash);
            if (i < 0) {
                return null;
            }
            V old = (V) slot[i + 1];
            Object[] shorter = slot.length == 2 ? EMPTY_SLOT : new Object[slot.length - 2];
            System.arraycopy(slot, 0, shorter, 0, i);
            System.arraycopy(slot, i + 2, shorter, i, slot.length - i - 2);
            ownSlots()[s] = shorter;
            size--;
            return old;
        }

        /** The map; the builder must not be used afterwards. */
        public SharedHashMap<K, V> build() {
            checkNotBuilt();
            built = true;
            if (slots.length > MIN_SLOTS && size < slots.length / 2) {
                resize(Math.max(MIN_SLOTS, Integer.highestOneBit(Math.max(1, size)) / 2));
            }
            return new SharedHashMap<>(slots, size);
        }

        @SuppressWarnings("unchecked")
        private V put(K key, V value, boolean replace) {
            checkNotBuilt();
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            int hash = key.hashCode();
            int s = slotOf(hash, slots.length);
            Object[] slot = slots[s];
            int i = indexIn(slot, key, hash);
            if (i >= 0) {
                V old = (V) slot[i + 1];
                if (replace) {
                    Object[] copy = slot.clone();
                    copy[i + 1] = value;
                    ownSlots()[s] = copy;
                }
                return old;
            }
            Object[] longer = Arrays.copyOf(slot, slot.length + 2);
            longer[slot.length] = key;
            longer[slot.length + 1] = value;
            ownSlots()[s] = longer;
            if (++size > slots.length * GROW_AT) {
                resize(slots.length * 2);
            }
            return null;
        }

        private Object[][] ownSlots() {
            if (!slotsOwned) {
                slots = slots.clone();
                slotsOwned = true;
            }
            return slots;
        }

        private void resize(int slotCount) {
            int[] counts = new int[slotCount];
            for (Object[] slot : slots) {
                for (int i = 0; i < slot.length; i += 2) {
                    counts[slotOf(slot[i].hashCode(), slotCount)]++;
                }
            }
            Object[][] resized = new Object[slotCount][];
            for (int s = 0; s < slotCount; s++) {
                resized[s] = counts[s] == 0 ? EMPTY_SLOT : new Object[counts[s] * 2];
            }
            int[] filled = new int[slotCount];
            for (Object[] slot : slots) {
                for (int i = 0; i < slot.length; i += 2) {
                    int s = slotOf(slot[i].hashCode(), slotCount);
                    resized[s][filled[s]++] = slot[i];
                    resized[s][filled[s]++] = slot[i + 1];
                }
            }
            slots = resized;
            slotsOwned = true;
        }

        private void checkNotBuilt() {
            if (built) {
                throw new IllegalStateException("The builder was used to build a map already");
            }
        }
    }
}
