package io.weir.log;

/**
 * The constants of the log file format, version 1 (docs/format.md §4). All integers are
 * little-endian; magics are ASCII, stored here as the little-endian int of their four bytes.
 */
final class LogFormat {
    /** "WLOG": the first four bytes of every log file. */
    static final int FILE_MAGIC = magic("WLOG");

    /** "WBLK": the first four bytes of every block. */
    static final int BLOCK_MAGIC = magic("WBLK");

    /** "WEND": the first four bytes of the footer. */
    static final int FOOTER_MAGIC = magic("WEND");

    static final int VERSION = 1;

    /** File header: magic (4), version (4). */
    static final int FILE_HEADER_SIZE = 8;

    // Offsets of the fields of a block, from the block's first byte.
    static final int BLOCK_LENGTH = 4;

    /** Block magic and length: what precedes the part that blockLength counts. */
    static final int BLOCK_PREFIX = 8;

    static final int SCHEMA_ID = 8;
    static final int FIELD_COUNT = 12;
    static final int RECORD_COUNT = 16;
    static final int CODEC = 20;
    static final int RESERVED = 21;
    static final int RAW_SIZE = 24;
    static final int PAYLOAD = 28;

    /** Block header (schema id .. raw size): what blockLength counts besides the payload. */
    static final int BLOCK_HEADER_SIZE = PAYLOAD - BLOCK_PREFIX;

    static final int CRC_SIZE = 4;

    /** The fixed bytes of a block: magic, length, header, CRC. */
    static final int BLOCK_OVERHEAD = PAYLOAD + CRC_SIZE;

    /** Footer: magic (4), block count (4), record count (8), CRC (4). */
    static final int FOOTER_SIZE = 20;

    static final int FOOTER_CRC = 16;

    /** The length prefix of a record in the payload. */
    static final int RECORD_PREFIX = 4;

    /** The largest uncompressed payload of a block, so sizes and offsets stay Java ints. */
    static final int MAX_PAYLOAD = 1 << 30;

    /** The smallest valid file: a header and a footer, no blocks. */
    static final int MIN_FILE_SIZE = FILE_HEADER_SIZE + FOOTER_SIZE;

    private LogFormat() {}

    private static int magic(String ascii) {
        return ascii.charAt(0)
                | ascii.charAt(1) << 8
                | ascii.charAt(2) << 16
                | ascii.charAt(3) << 24;
    }

    /** A magic for messages: its four bytes in hex. */
    static String hex(int value) {
        return String.format(
                "%02x %02x %02x %02x",
                value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, value >>> 24);
    }
}
