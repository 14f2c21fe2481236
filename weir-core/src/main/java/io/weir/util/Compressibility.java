package io.weir.util;

/**
 * When compressed bytes are worth storing: the one rule for log blocks and Parquet column chunks.
 */
public final class Compressibility {
    private Compressibility() {}

    /**
     * Whether bytes compressed from {@code rawSize} to {@code compressedSize} save at least an
     * eighth: the rule of RocksDB's block-based tables. Below that, the bytes saved do not pay for
     * the work every reader does to decompress them (and, for a Parquet column chunk, the writer's
     * to compress its other pages), so they are stored as they are.
     */
    public static boolean worthStoringCompressed(long rawSize, long compressedSize) {
        return compressedSize < rawSize - rawSize / 8;
    }
}
