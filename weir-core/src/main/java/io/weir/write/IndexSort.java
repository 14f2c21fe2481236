package io.weir.write;

import java.util.Arrays;

/**
 * Sorts a {@link SortIndex} in place, moving entries only.
 *
 * <p>Most of the order is fixed-width bytes: the group, the key prefix and (when the prefix decides
 * the key, or there is no key) the pointer. So the sort is an MSD radix sort (American flag sort:
 * in place, one histogram and one permutation pass per digit) over those words, skipping bits that
 * are the same in every entry (partition ids, the high bits of small keys), with 11-bit digits
 * while ranges are large (fewer passes over the whole index) and bytes once they are small. Ranges
 * that become small, and ranges whose bytes are all equal while a full key comparison is still
 * needed, are finished by an introsort with the index's comparator: quicksort with a
 * median-of-three pivot held in registers, insertion sort for short ranges, heapsort if the
 * recursion gets too deep.
 *
 * <p>Neither part is stable by itself; the order is total (it ends with the insertion order), so
 * the result is the stable order anyway.
 */
final class IndexSort {
    private static final int INSERTION_SORT_MAX = 16;

    /** Ranges up to this size are comparison-sorted: a radix pass costs more than it saves. */
    private static final int RADIX_MIN = 64;

    /** Recursion levels allocated up front: digits of the three words, at 8 bits or more each. */
    private static final int MAX_LEVELS = 24;

    /** The widest digit, for ranges of at least {@link #WIDE_MIN} entries. */
    private static final int WIDE_BITS = 11;

    /**
     * Ranges at least this large are sorted by {@link #WIDE_BITS}-bit digits (64 entries per bucket
     * on average), smaller ones by bytes. SortBenchmark (bigint keys in [0, 4 M), 1.2 M rows, the
     * size of a full 256 MB buffer of schema1): 134-144 to 119-136 ns per row; with 8 entries per
     * bucket, 200,000 rows got slower (84 to 110 ns): the wide pass's buckets then cost more than
     * the pass it saves.
     */
    private static final int WIDE_MIN = 64 << WIDE_BITS;

    private final SortIndex x;

    /**
     * The words of the order (group, prefix, and the pointer when it decides ties) and, per word,
     * the lowest and highest bit that is not the same in every entry ({@code high < 0}: none).
     */
    private final int[] varyingLow = new int[3];

    private final int[] varyingHigh = new int[3];
    private int words;

    /**
     * Per recursion level: bucket write positions and bucket ends (allocated on first use; more
     * levels when string keys are sorted by further words).
     */
    private int[][] next = new int[MAX_LEVELS][];

    private int[][] end = new int[MAX_LEVELS][];

    IndexSort(SortIndex index) {
        this.x = index;
    }

    /**
     * Sorts entries {@code 0..size-1}; {@code pointerDecides} when the order continues with the
     * pointer right after the prefix (no full key comparison in between).
     */
    void sort(int size, boolean pointerDecides) {
        if (size < 2) {
            return;
        }
        findVaryingBits(size, pointerDecides);
        radixSort(0, size, 0, 0, varyingHigh[0]);
    }

    /** Sorts entries {@code lo..hi} (inclusive) by comparisons only. */
    void introSort(int lo, int hi) {
        if (hi > lo) {
            introSort(lo, hi, 2 * (31 - Integer.numberOfLeadingZeros(hi - lo + 1)));
        }
    }

    /** Finds, per word of the order, the bits that are not the same in every entry. */
    private void findVaryingBits(int size, boolean withPointer) {
        long or0 = 0L;
        long or1 = 0L;
        long or2 = 0L;
        long and0 = -1L;
        long and1 = -1L;
        long and2 = -1L;
        for (int i = 0; i < size; i++) {
            long group = x.word(i, 0);
            long prefix = x.word(i, 8);
            long pointer = x.word(i, 16);
            or0 |= group;
            and0 &= group;
            or1 |= prefix;
            and1 &= prefix;
            or2 |= pointer;
            and2 &= pointer;
        }
        words = withPointer ? 3 : 2;
        setVarying(0, or0 ^ and0);
        setVarying(1, or1 ^ and1);
        setVarying(2, or2 ^ and2);
    }

    private void setVarying(int word, long varyingBits) {
        varyingHigh[word] = 63 - Long.numberOfLeadingZeros(varyingBits); // -1 if none
        varyingLow[word] = Long.numberOfTrailingZeros(varyingBits);
    }

    /**
     * Sorts entries {@code lo..hi-1}, equal in every bit of the order above bit {@code top} of word
     * {@code word} (0 group, 1 prefix, 2 pointer). Each pass takes the next digit from the top: up
     * to {@link #WIDE_BITS} bits in large ranges, 8 in smaller ones, never across words; a digit
     * may reach below the word's lowest varying bit (those bits are equal in all entries), and bits
     * above {@code top} it reads are equal within the range.
     */
    private void radixSort(int lo, int hi, int level, int word, int top) {
        while (hi - lo > RADIX_MIN) {
            while (word < words && top < varyingLow[word]) {
                word++;
                top = word < words ? varyingHigh[word] : -1;
            }
            if (word >= words) {
                break;
            }
            int wordOffset = word * 8;
            int width = Math.min(hi - lo >= WIDE_MIN ? WIDE_BITS : 8, top + 1);
            int shift = top + 1 - width;
            int radix = 1 << width;
            int mask = radix - 1;
            int[] ends = end(level);
            Arrays.fill(ends, 0, radix, 0);
            for (int i = lo; i < hi; i++) {
                ends[(int) (x.word(i, wordOffset) >>> shift) & mask]++;
            }
            top = shift - 1;
            if (ends[(int) (x.word(lo, wordOffset) >>> shift) & mask] == hi - lo) {
                continue; // one value in this range: nothing to move
            }
            int[] starts = next[level];
            int at = lo;
            for (int b = 0; b < radix; b++) {
                starts[b] = at;
                at += ends[b];
                ends[b] = at;
            }
            x.permute(wordOffset, shift, mask, starts, ends);
            int from = lo;
            for (int b = 0; b < radix; b++) {
                int to = ends[b];
                if (to - from > 1) {
                    radixSort(from, to, level + 1, word, top);
                }
                from = to;
            }
            return;
        }
        if (hi - lo > RADIX_MIN && x.hasLongerWords()) {
            // Equal (partition, bucket) and 8-byte prefix, and a string key: rather than compare
            // rows (two cache misses per comparison), radix-sort by the key's next words, loading
            // each entry's word once per word. The prefix slots hold those words meanwhile; all
            // entries here had the same prefix, which is put back afterwards.
            long prefix = x.prefix(lo);
            wordSort(lo, hi, 1, level);
            x.setPrefix(lo, hi, prefix);
            return;
        }
        introSort(lo, hi - 1);
    }

    /**
     * Sorts entries {@code lo..hi-1} of a string key whose words before {@code depth} are equal:
     * loads word {@code depth} into the prefix slots and radix-sorts by its bytes that vary; ranges
     * equal in it go on to the next word, while any key is longer. Ranges that stay equal (equal
     * keys but for zero padding) and small ranges are compared in full.
     */
    private void wordSort(int lo, int hi, int depth, int level) {
        while (hi - lo > RADIX_MIN) {
            long or = 0L;
            long and = -1L;
            x.moreWords = false;
            for (int i = lo; i < hi; i++) {
                long w = x.loadWord(i, depth);
                or |= w;
                and &= w;
            }
            long varying = or ^ and;
            if (varying != 0L) {
                wordRadix(lo, hi, varying, 56, depth, level);
                return;
            }
            if (!x.moreWords) {
                break; // equal keys (or equal but for zero padding): the full order decides
            }
            depth++;
        }
        introSort(lo, hi - 1);
    }

    /**
     * MSD radix sort of entries {@code lo..hi-1} by the bytes of the prefix slot (holding word
     * {@code depth}) that are set in {@code varying}, from the byte at {@code shift} down.
     */
    private void wordRadix(int lo, int hi, long varying, int shift, int depth, int level) {
        while (shift >= 0 && ((varying >>> shift) & 0xFF) == 0) {
            shift -= 8;
        }
        if (shift < 0) {
            wordSort(lo, hi, depth + 1, level);
            return;
        }
        if (hi - lo <= RADIX_MIN) {
            introSort(lo, hi - 1);
            return;
        }
        int[] ends = end(level);
        Arrays.fill(ends, 0);
        for (int i = lo; i < hi; i++) {
            ends[(int) (x.word(i, 8) >>> shift) & 0xFF]++;
        }
        if (ends[(int) (x.word(lo, 8) >>> shift) & 0xFF] == hi - lo) {
            wordRadix(lo, hi, varying, shift - 8, depth, level);
            return;
        }
        int[] starts = next[level];
        int at = lo;
        for (int b = 0; b < 256; b++) {
            starts[b] = at;
            at += ends[b];
            ends[b] = at;
        }
        x.permute(8, shift, 0xFF, starts, ends);
        int from = lo;
        for (int b = 0; b < 256; b++) {
            int to = ends[b];
            if (to - from > 1) {
                wordRadix(from, to, varying, shift - 8, depth, level + 1);
            }
            from = to;
        }
    }

    private int[] end(int level) {
        if (level >= end.length) {
            end = Arrays.copyOf(end, 2 * level);
            next = Arrays.copyOf(next, 2 * level);
        }
        if (end[level] == null) {
            end[level] = new int[1 << WIDE_BITS];
            next[level] = new int[1 << WIDE_BITS];
        }
        return end[level];
    }

    private void introSort(int lo, int hi, int depth) {
        while (hi - lo >= INSERTION_SORT_MAX) {
            if (depth-- == 0) {
                heapSort(lo, hi);
                return;
            }
            int p = partition(lo, hi);
            // Recurse into the smaller side, loop on the larger: stack depth stays logarithmic.
            if (p - lo < hi - p) {
                introSort(lo, p, depth);
                lo = p + 1;
            } else {
                introSort(p + 1, hi, depth);
                hi = p;
            }
        }
        insertionSort(lo, hi);
    }

    /**
     * Hoare partition around the median of lo, mid and hi. Returns p with lo &lt;= p &lt; hi such
     * that entries lo..p are at most the pivot and entries p+1..hi at least the pivot.
     */
    private int partition(int lo, int hi) {
        int mid = lo + ((hi - lo) >>> 1);
        if (x.compare(mid, lo) < 0) {
            x.swap(mid, lo);
        }
        if (x.compare(hi, lo) < 0) {
            x.swap(hi, lo);
        }
        if (x.compare(hi, mid) < 0) {
            x.swap(hi, mid);
        }
        x.setPivot(mid);
        // lo and hi now hold entries on the right sides of the pivot: they stop both scans.
        int i = lo;
        int j = hi;
        while (true) {
            do {
                i++;
            } while (x.compareToPivot(i) < 0);
            do {
                j--;
            } while (x.compareToPivot(j) > 0);
            if (i >= j) {
                return j;
            }
            x.swap(i, j);
        }
    }

    private void insertionSort(int lo, int hi) {
        for (int i = lo + 1; i <= hi; i++) {
            for (int j = i; j > lo && x.compare(j - 1, j) > 0; j--) {
                x.swap(j - 1, j);
            }
        }
    }

    /** Heapsort of lo..hi (inclusive); package-private for tests of this rarely taken path. */
    void heapSort(int lo, int hi) {
        int n = hi - lo + 1;
        for (int root = n / 2 - 1; root >= 0; root--) {
            siftDown(lo, root, n);
        }
        for (int last = n - 1; last > 0; last--) {
            x.swap(lo, lo + last);
            siftDown(lo, 0, last);
        }
    }

    private void siftDown(int lo, int root, int n) {
        while (true) {
            int child = 2 * root + 1;
            if (child >= n) {
                return;
            }
            if (child + 1 < n && x.compare(lo + child, lo + child + 1) < 0) {
                child++;
            }
            if (x.compare(lo + root, lo + child) >= 0) {
                return;
            }
            x.swap(lo + root, lo + child);
            root = child;
        }
    }
}
