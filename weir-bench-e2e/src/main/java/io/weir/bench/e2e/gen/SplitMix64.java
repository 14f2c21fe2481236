package io.weir.bench.e2e.gen;

/**
 * The splitmix64 generator (Steele, Lea, Flood 2014) as a pure function: every value of a row is
 * derived from the row's index, so the rows can be generated again to check a table.
 */
public final class SplitMix64 {
    /** The golden-ratio increment of splitmix64. */
    public static final long GAMMA = 0x9E3779B97F4A7C15L;

    private SplitMix64() {}

    /** The splitmix64 finalizer of {@code z}. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
