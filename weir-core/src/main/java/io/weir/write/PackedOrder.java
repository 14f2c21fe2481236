package io.weir.write;

import io.weir.memory.MemoryPool;
import io.weir.util.LittleEndian;

import java.util.Arrays;

/**
 * The order of a {@link SortIndex} that is ordered by (group, prefix, insertion), when it packs
 * into longs: partition, bucket and prefix, each as its offset from the smallest value in the
 * index, above the row's location (page, offset, length), make one long per entry, and an LSD radix
 * sort by all but the location bits orders those longs. The sort is stable, the longs start in
 * insertion order, and the location grows with insertion, so equal keys keep it. The cursor then
 * reads the sorted longs alone, front to back ({@link #value}, decoded by {@link #group}, {@link
 * #prefix}, {@link #pointer}, {@link #length}); the index's entries stay where they are.
 *
 * <p>Compared with the in-place MSD sort of the 32-byte entries ({@link IndexSort}), each pass
 * reads one array in order and writes 8-byte values to 256 sequential streams, and the cursor reads
 * no entry: with a full 256 MB buffer of schema1 rows (1.2 M BIGINT keys, three passes)
 * SortBenchmark's sort and cursor pass take 87-96 ns per row instead of 123-135
 * (docs/write-buffer.md).
 *
 * <p>The longs live in scratch pages that the index takes from the pool as it grows (one for every
 * two index pages: two longs per 32-byte entry, the array sorted and the array sorted into), so the
 * buffer's memory stays within its budget. Entries whose offsets do not fit (BIGINT keys over the
 * full range, far-apart partition ids) are left to {@link IndexSort}; the scratch pages then go
 * unused.
 */
final class PackedOrder {
    private static final int DIGIT_BITS = 8;
    private static final int RADIX = 1 << DIGIT_BITS;
    private static final int DIGIT_MASK = RADIX - 1;

    private final int longShift;
    private final int longMask;
    private final int[][] counts = new int[64 / DIGIT_BITS][RADIX];

    private byte[][] pages = new byte[16][];
    private int pageCount;

    /** The slot of the first sorted long, or -1 while the entries are not in a packed order. */
    private int sortedBase = -1;

    // How the sorted longs decode (see sort).
    private int groupShift;
    private int bucketBits;
    private long minPartition;
    private long minBucket;
    private int prefixShift;
    private long prefixMask;
    private long minPrefix;
    private long locationMask;
    private int offsetBits;
    private int lengthBits;
    private int alignShift;

    PackedOrder(int pageSize) {
        this.longShift = Integer.numberOfTrailingZeros(pageSize) - 3;
        this.longMask = (1 << longShift) - 1;
    }

    /** The scratch pages an index of {@code indexPages} pages needs: two longs per entry. */
    static int pagesFor(int indexPages) {
        return (indexPages + 1) >>> 1;
    }

    int pageCount() {
        return pageCount;
    }

    void addPage(byte[] page) {
        if (pageCount == pages.length) {
            pages = Arrays.copyOf(pages, 2 * pageCount);
        }
        pages[pageCount++] = page;
    }

    /** Returns the scratch pages to the pool and forgets the order. */
    void clear(MemoryPool pool) {
        for (int i = 0; i < pageCount; i++) {
            pool.release(pages[i]);
            pages[i] = null;
        }
        pageCount = 0;
        sortedBase = -1;
    }

    /** Forgets the order: the index's entries are the order again. */
    void reset() {
        sortedBase = -1;
    }

    /** Whether the entries are in a packed order: then {@link #value} and its decoders apply. */
    boolean isSorted() {
        return sortedBase >= 0;
    }

    /** The packed long of the k-th row of the order: read once per row, then decoded. */
    long value(int k) {
        return get(sortedBase + k);
    }

    /** The group of a row, from its {@link #value}. */
    long group(long value) {
        long code = groupShift < 64 ? value >>> groupShift : 0L;
        return ((code >>> bucketBits) + minPartition) << 32
                | ((code & ((1L << bucketBits) - 1)) + minBucket);
    }

    /** The prefix of a row, from its {@link #value}. */
    long prefix(long value) {
        return ((value >>> prefixShift) & prefixMask) + minPrefix;
    }

    /** The pointer of a row, from its {@link #value}. */
    long pointer(long value) {
        long location = (value & locationMask) >>> lengthBits;
        return (location >>> offsetBits) << 32
                | (location & ((1L << offsetBits) - 1)) << alignShift;
    }

    /** The length of a row, from its {@link #value}. */
    int length(long value) {
        return (int) (value & ((1L << lengthBits) - 1)) << alignShift;
    }

    /**
     * Orders entries {@code 0..size-1} of {@code x}, which must be in insertion order. False, with
     * nothing changed, when they do not fit a long each: sort the index itself then.
     */
    boolean sort(SortIndex x, int size) {
        sortedBase = -1;
        // The order is (partition, bucket, prefix unsigned, insertion): each of the first three as
        // its offset from the smallest value, in as many bits as the largest offset needs. Below
        // them the row's location: page, offset and length (without the low bits that are zero in
        // all, as 8-byte aligned rows have), which increases with insertion, so that the cursor
        // needs nothing but the sorted longs.
        long minPartition = Long.MAX_VALUE;
        long maxPartition = 0L;
        long minBucket = Long.MAX_VALUE;
        long maxBucket = 0L;
        long minPrefix = -1L;
        long maxPrefix = 0L;
        long maxPage = 0L;
        long maxOffset = 0L;
        long maxLength = 0L;
        long lowBits = 0L;
        for (int i = 0; i < size; i++) {
            long group = x.group(i);
            long partition = group >>> 32;
            long bucket = group & 0xFFFFFFFFL;
            long prefix = x.prefix(i);
            long pointer = x.pointer(i);
            long offset = pointer & 0xFFFFFFFFL;
            long length = x.length(i);
            minPartition = Math.min(minPartition, partition);
            maxPartition = Math.max(maxPartition, partition);
            minBucket = Math.min(minBucket, bucket);
            maxBucket = Math.max(maxBucket, bucket);
            if (Long.compareUnsigned(prefix, minPrefix) < 0) {
                minPrefix = prefix;
            }
            if (Long.compareUnsigned(prefix, maxPrefix) > 0) {
                maxPrefix = prefix;
            }
            maxPage = Math.max(maxPage, pointer >>> 32);
            maxOffset = Math.max(maxOffset, offset);
            maxLength = Math.max(maxLength, length);
            lowBits |= offset | length;
        }
        int alignShift = Math.min(Long.numberOfTrailingZeros(lowBits), 31);
        int partitionBits = bits(maxPartition - minPartition);
        int bucketBits = bits(maxBucket - minBucket);
        int prefixBits = bits(maxPrefix - minPrefix);
        int offsetBits = bits(maxOffset >>> alignShift);
        int lengthBits = bits(maxLength >>> alignShift);
        int keyBits = partitionBits + bucketBits + prefixBits;
        int locationBits = bits(maxPage) + offsetBits + lengthBits;
        if (keyBits + locationBits > 64 || 2L * size > ((long) pageCount << longShift)) {
            return false;
        }
        int digits = (keyBits + DIGIT_BITS - 1) / DIGIT_BITS;
        for (int d = 0; d < digits; d++) {
            Arrays.fill(counts[d], 0);
        }
        for (int i = 0; i < size; i++) {
            long group = x.group(i);
            long code = (group >>> 32) - minPartition;
            code = code << bucketBits | ((group & 0xFFFFFFFFL) - minBucket);
            code = code << prefixBits | (x.prefix(i) - minPrefix);
            long pointer = x.pointer(i);
            long location = (pointer >>> 32) << offsetBits | (pointer & 0xFFFFFFFFL) >>> alignShift;
            location = location << lengthBits | (x.length(i) >>> alignShift);
            put(i, keyBits == 0 ? location : code << locationBits | location);
            for (int d = 0; d < digits; d++) {
                counts[d][(int) (code >>> (d * DIGIT_BITS)) & DIGIT_MASK]++;
            }
        }
        int from = 0;
        int to = size;
        for (int d = 0; d < digits; d++) {
            int shift = locationBits + d * DIGIT_BITS;
            int[] starts = counts[d];
            if (starts[(int) (get(from) >>> shift) & DIGIT_MASK] == size) {
                continue; // one value of this digit: the pass would change nothing
            }
            int at = to;
            for (int b = 0; b < RADIX; b++) {
                int n = starts[b];
                starts[b] = at;
                at += n;
            }
            for (int i = 0; i < size; i++) {
                long key = get(from + i);
                put(starts[(int) (key >>> shift) & DIGIT_MASK]++, key);
            }
            int t = from;
            from = to;
            to = t;
        }
        this.sortedBase = from;
        this.groupShift = locationBits + prefixBits;
        this.bucketBits = bucketBits;
        this.minPartition = minPartition;
        this.minBucket = minBucket;
        this.prefixShift = locationBits;
        this.prefixMask = prefixBits == 0 ? 0L : -1L >>> (64 - prefixBits);
        this.minPrefix = minPrefix;
        this.locationMask = -1L >>> (64 - locationBits);
        this.offsetBits = offsetBits;
        this.lengthBits = lengthBits;
        this.alignShift = alignShift;
        return true;
    }

    /** The bits an unsigned value needs (0 for 0). */
    private static int bits(long unsigned) {
        return 64 - Long.numberOfLeadingZeros(unsigned);
    }

    private long get(int slot) {
        return LittleEndian.getLong(pages[slot >>> longShift], (slot & longMask) << 3);
    }

    private void put(int slot, long value) {
        LittleEndian.putLong(pages[slot >>> longShift], (slot & longMask) << 3, value);
    }
}
