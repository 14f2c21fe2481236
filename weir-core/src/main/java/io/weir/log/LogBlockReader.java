package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.options.LogCodec;
import io.weir.util.LittleEndian;

import java.io.IOException;
import java.util.zip.DataFormatException;

import static io.weir.log.LogFormat.BLOCK_HEADER_SIZE;
import static io.weir.log.LogFormat.BLOCK_LENGTH;
import static io.weir.log.LogFormat.BLOCK_OVERHEAD;
import static io.weir.log.LogFormat.BLOCK_PREFIX;
import static io.weir.log.LogFormat.CODEC;
import static io.weir.log.LogFormat.CRC_SIZE;
import static io.weir.log.LogFormat.FIELD_COUNT;
import static io.weir.log.LogFormat.PAYLOAD;
import static io.weir.log.LogFormat.RAW_SIZE;
import static io.weir.log.LogFormat.RECORD_COUNT;
import static io.weir.log.LogFormat.RECORD_PREFIX;
import static io.weir.log.LogFormat.RESERVED;
import static io.weir.log.LogFormat.SCHEMA_ID;
import static io.weir.log.LogFormat.hex;

/**
 * Reads one block at a time into reused buffers and verifies its magic, length, CRC and header, and
 * decompresses it. Record boundaries are the caller's to check as it walks the payload.
 */
final class LogBlockReader {
    private static final int INITIAL_CAPACITY = 8 << 10;

    private final LogInput input;
    private final int arity;
    private final int minRowSize;
    private final BlockCodec[] codecs = new BlockCodec[LogCodec.values().length];

    /** The stored block, from its magic to its CRC. */
    private byte[] block = new byte[INITIAL_CAPACITY];

    private byte[] decompressed = new byte[0];
    private byte[] payload;
    private int payloadStart;
    private int payloadEnd;
    private long recordCount;
    private int schemaId = -1;

    LogBlockReader(LogInput input, int arity) {
        this.input = input;
        this.arity = arity;
        this.minRowSize = BinaryRow.fixedPartSize(arity);
    }

    /**
     * Reads the block at {@code at}, which must end at or before {@code limit}, and returns the
     * offset after it.
     */
    long read(long at, long limit) throws IOException {
        long available = limit - at;
        if (available < BLOCK_OVERHEAD) {
            throw input.corrupt(
                    at,
                    available + " bytes before the footer are too few for a block (truncated?)");
        }
        input.readFully(at, block, 0, BLOCK_PREFIX);
        int magic = LittleEndian.getInt(block, 0);
        if (magic != LogFormat.BLOCK_MAGIC) {
            throw input.corrupt(
                    at,
                    "bad block magic " + hex(magic) + ", expected " + hex(LogFormat.BLOCK_MAGIC));
        }
        long length = Integer.toUnsignedLong(LittleEndian.getInt(block, BLOCK_LENGTH));
        long maxLength = Math.min(available - BLOCK_PREFIX - CRC_SIZE, Integer.MAX_VALUE - 64);
        if (length < BLOCK_HEADER_SIZE || length > maxLength) {
            throw input.corrupt(
                    at + BLOCK_LENGTH,
                    "block length "
                            + length
                            + " is outside ["
                            + BLOCK_HEADER_SIZE
                            + ", "
                            + maxLength
                            + "]: the block would end past the footer at "
                            + limit);
        }
        int crcAt = BLOCK_PREFIX + (int) length;
        if (crcAt + CRC_SIZE > block.length) {
            block = grow(block, crcAt + CRC_SIZE, BLOCK_PREFIX);
        }
        input.readFully(at + BLOCK_PREFIX, block, BLOCK_PREFIX, (int) length + CRC_SIZE);
        input.checkCrc(at, block, crcAt, "block");
        readHeader(at, crcAt - PAYLOAD);
        return at + crcAt + CRC_SIZE;
    }

    /** The array holding the current block's records, from payloadStart to payloadEnd. */
    byte[] payload() {
        return payload;
    }

    int payloadStart() {
        return payloadStart;
    }

    int payloadEnd() {
        return payloadEnd;
    }

    long recordCount() {
        return recordCount;
    }

    /** The schema id of the blocks read so far, or -1 before the first. */
    int schemaId() {
        return schemaId;
    }

    void close() {
        for (int i = 0; i < codecs.length; i++) {
            if (codecs[i] != null) {
                codecs[i].close();
                codecs[i] = null;
            }
        }
    }

    private void readHeader(long at, int storedSize) {
        int blockSchemaId = LittleEndian.getInt(block, SCHEMA_ID);
        int fieldCount = LittleEndian.getInt(block, FIELD_COUNT);
        long records = Integer.toUnsignedLong(LittleEndian.getInt(block, RECORD_COUNT));
        int codecId = block[CODEC] & 0xff;
        long rawSize = Integer.toUnsignedLong(LittleEndian.getInt(block, RAW_SIZE));
        LogCodec codec = LogCodec.fromId(codecId);
        if (codec == null) {
            throw input.corrupt(at + CODEC, "unknown codec id " + codecId);
        }
        for (int i = RESERVED; i < RAW_SIZE; i++) {
            if (block[i] != 0) {
                throw input.corrupt(at + i, "reserved byte is " + block[i] + ", not 0");
            }
        }
        if (fieldCount != arity) {
            throw input.corrupt(
                    at + FIELD_COUNT,
                    "the block's rows have "
                            + Integer.toUnsignedString(fieldCount)
                            + " fields, the reader expects "
                            + arity
                            + " (wrong schema?)");
        }
        if (schemaId >= 0 && blockSchemaId != schemaId) {
            throw input.corrupt(
                    at + SCHEMA_ID,
                    "block schema id "
                            + blockSchemaId
                            + " differs from the file's first block's "
                            + schemaId);
        }
        if (rawSize > LogFormat.MAX_PAYLOAD) {
            throw input.corrupt(at + RAW_SIZE, "raw payload size " + rawSize + " is too large");
        }
        if (records == 0 || records * (RECORD_PREFIX + minRowSize) > rawSize) {
            throw input.corrupt(
                    at + RECORD_COUNT,
                    records + " records do not fit a payload of " + rawSize + " bytes");
        }
        if (codec != LogCodec.NONE && rawSize > maxRawSize(codec, storedSize)) {
            throw input.corrupt(
                    at + RAW_SIZE,
                    "raw payload size "
                            + rawSize
                            + " is more than "
                            + codec
                            + " can expand "
                            + storedSize
                            + " stored bytes to");
        }
        int raw = (int) rawSize;
        if (codec == LogCodec.NONE) {
            if (raw != storedSize) {
                throw input.corrupt(
                        at + RAW_SIZE,
                        "raw payload size "
                                + raw
                                + " differs from the "
                                + storedSize
                                + " stored bytes of an uncompressed block");
            }
            payload = block;
            payloadStart = PAYLOAD;
        } else {
            if (raw > decompressed.length) {
                decompressed = grow(decompressed, raw, 0);
            }
            try {
                codec(codec).decompress(block, PAYLOAD, storedSize, decompressed, 0, raw);
            } catch (DataFormatException e) {
                throw input.corrupt(
                        at + PAYLOAD,
                        "cannot decompress the " + codec + " payload: " + e.getMessage());
            }
            payload = decompressed;
            payloadStart = 0;
        }
        payloadEnd = payloadStart + raw;
        schemaId = blockSchemaId;
        recordCount = records;
    }

    /**
     * The most bytes {@code stored} bytes of a codec's output can decompress to, so that a damaged
     * raw size cannot make the reader allocate far more than the block could hold. LZ4 encodes at
     * most 255 bytes of a match per input byte; zstd at most one 128 KiB RLE block per 4 bytes.
     */
    private static long maxRawSize(LogCodec codec, int stored) {
        return switch (codec) {
            case NONE -> stored; // checked to be equal below, with its own message
            case LZ4 -> 256L * stored + 64;
            case ZSTD -> 32_768L * stored + (128 << 10);
        };
    }

    private BlockCodec codec(LogCodec codec) {
        BlockCodec c = codecs[codec.id()];
        if (c == null) {
            c = BlockCodec.create(codec);
            codecs[codec.id()] = c;
        }
        return c;
    }

    /**
     * A copy of the first {@code keep} bytes of {@code b} in an array of {@code needed} or more.
     */
    private static byte[] grow(byte[] b, int needed, int keep) {
        byte[] grown =
                new byte[(int) Math.max(needed, Math.min(2L * b.length, Integer.MAX_VALUE - 64))];
        System.arraycopy(b, 0, grown, 0, keep);
        return grown;
    }
}
