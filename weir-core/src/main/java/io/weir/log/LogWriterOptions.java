package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.options.LogCodec;

import java.util.Objects;

/**
 * How a {@link LogFileWriter} writes one file.
 *
 * @param schemaId the id of the table schema the rows are written with; stored in every block
 * @param arity the number of fields of every row; stored in every block
 * @param codec the compression of block payloads
 * @param blockSize the uncompressed payload size at which a block is closed, in bytes (1 to 2^30);
 *     a block never exceeds it, except a block holding a single larger record
 */
public record LogWriterOptions(int schemaId, int arity, LogCodec codec, int blockSize) {

    /** The default block size; tables set theirs with {@code log.block-size}. */
    public static final int DEFAULT_BLOCK_SIZE = 1 << 20;

    public LogWriterOptions {
        Objects.requireNonNull(codec, "codec");
        if (schemaId < 0) {
            throw new IllegalArgumentException("Invalid schema id " + schemaId);
        }
        if (arity < 0) {
            throw new IllegalArgumentException("Invalid arity " + arity);
        }
        if (blockSize < 1 || blockSize > LogFormat.MAX_PAYLOAD) {
            throw new IllegalArgumentException(
                    "Invalid block size " + blockSize + ": must be 1 to " + LogFormat.MAX_PAYLOAD);
        }
    }

    /** Options with the default block size. */
    public static LogWriterOptions of(int schemaId, int arity, LogCodec codec) {
        return new LogWriterOptions(schemaId, arity, codec, DEFAULT_BLOCK_SIZE);
    }

    public LogWriterOptions withBlockSize(int newBlockSize) {
        return new LogWriterOptions(schemaId, arity, codec, newBlockSize);
    }

    /** The size of the smallest row of this arity (header, null bits and fixed slots). */
    int minRowSize() {
        return BinaryRow.fixedPartSize(arity);
    }
}
