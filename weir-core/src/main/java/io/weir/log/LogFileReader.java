package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.data.RowBoundsCheck;
import io.weir.data.RowKind;
import io.weir.exceptions.CorruptFileException;
import io.weir.io.InputFile;
import io.weir.io.SeekableInputStream;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;

import java.io.Closeable;
import java.io.IOException;

import static io.weir.log.LogFormat.BLOCK_OVERHEAD;
import static io.weir.log.LogFormat.FILE_HEADER_SIZE;
import static io.weir.log.LogFormat.FOOTER_SIZE;
import static io.weir.log.LogFormat.RECORD_PREFIX;
import static io.weir.log.LogFormat.hex;

/**
 * Reads a log file (docs/format.md §4) block by block: {@code while (reader.next()) use
 * reader.row()}. Memory is one stored and one decompressed block, reused.
 *
 * <p>Everything is verified before a row is returned from it: the file header and footer on open,
 * each block's CRC-32C, header fields and record boundaries as it is read, and the footer's counts
 * at the end. Any mismatch fails with a {@link CorruptFileException} naming the file and the offset
 * of the problem; it never returns wrong data.
 *
 * <p>Not thread-safe.
 */
public final class LogFileReader implements Closeable {
    private final LogInput input;
    private final LogBlockReader blocks;
    private final int arity;
    private final int minRowSize;
    private final long footerOffset;
    private final long footerBlocks;
    private final long footerRecords;
    private final BinaryRow row;
    private final RowBoundsCheck bounds; // null: rows of a file this process wrote

    private byte[] payload;
    private int cursor;
    private int payloadEnd;
    private long blockOffset;
    private long recordsLeft;
    private long nextBlockOffset = FILE_HEADER_SIZE;
    private long blocksRead;
    private long recordsRead;
    private boolean finished;

    private LogFileReader(LogInput input, long length, int arity, RowBoundsCheck bounds)
            throws IOException {
        this.input = input;
        this.bounds = bounds;
        this.blocks = new LogBlockReader(input, arity);
        this.arity = arity;
        this.minRowSize = BinaryRow.fixedPartSize(arity);
        this.row = new BinaryRow(arity);
        byte[] scratch = new byte[FOOTER_SIZE];
        readFileHeader(length, scratch);
        this.footerOffset = length - FOOTER_SIZE;
        input.readFully(footerOffset, scratch, 0, FOOTER_SIZE);
        int magic = LittleEndian.getInt(scratch, 0);
        if (magic != LogFormat.FOOTER_MAGIC) {
            throw input.corrupt(
                    footerOffset,
                    "no footer in the last "
                            + FOOTER_SIZE
                            + " bytes (found "
                            + hex(magic)
                            + ", expected "
                            + hex(LogFormat.FOOTER_MAGIC)
                            + "): the file is truncated or has trailing bytes");
        }
        input.checkCrc(footerOffset, scratch, LogFormat.FOOTER_CRC, "footer");
        this.footerBlocks = Integer.toUnsignedLong(LittleEndian.getInt(scratch, 4));
        this.footerRecords = LittleEndian.getLong(scratch, 8);
        long blockBytes = footerOffset - FILE_HEADER_SIZE;
        if (footerRecords < footerBlocks
                || (footerBlocks == 0) != (footerRecords == 0)
                || (footerBlocks == 0) != (blockBytes == 0)
                || blockBytes < footerBlocks * BLOCK_OVERHEAD) {
            throw input.corrupt(
                    footerOffset,
                    "the footer's "
                            + footerBlocks
                            + " blocks and "
                            + footerRecords
                            + " records do not fit the "
                            + blockBytes
                            + " bytes between the file header and the footer");
        }
    }

    /**
     * Opens a table's log file whose rows are of {@code rowType}. It is read once, front to back,
     * around the page cache where the file system can ({@link InputFile#newUncachedStream()}): a
     * log file is read by the compaction that replaces it, and by the few scans before that.
     *
     * <p>Besides the framing, each row is checked against the type ({@link RowBoundsCheck}) before
     * it is returned, so that reading its fields never goes outside it.
     *
     * @throws java.io.FileNotFoundException naming the path if the file does not exist
     * @throws CorruptFileException if its header or footer is damaged, or it is truncated
     */
    public static LogFileReader open(InputFile file, RowType rowType) throws IOException {
        return open(file, rowType.size(), RowBoundsCheck.of(rowType));
    }

    /**
     * Opens a log file whose rows have {@code arity} fields, checking their framing only: for files
     * this process wrote itself, such as spills.
     */
    public static LogFileReader open(InputFile file, int arity) throws IOException {
        return open(file, arity, null);
    }

    private static LogFileReader open(InputFile file, int arity, RowBoundsCheck bounds)
            throws IOException {
        if (arity < 0) {
            throw new IllegalArgumentException("Invalid arity " + arity);
        }
        long length = file.length();
        SeekableInputStream in = file.newUncachedStream();
        LogInput input = new LogInput(file.path(), in);
        try {
            return new LogFileReader(input, length, arity, bounds);
        } catch (IOException | RuntimeException e) {
            try {
                in.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    public String path() {
        return input.path();
    }

    /** The number of records in the file, as its footer says (verified when reading ends). */
    public long recordCount() {
        return footerRecords;
    }

    /** The schema id of the blocks read so far, or -1 before the first block. */
    public int schemaId() {
        return blocks.schemaId();
    }

    /**
     * Advances to the next row. Returns false at the end of the file, after checking that the file
     * held exactly the blocks and records its footer counts.
     */
    public boolean next() throws IOException {
        while (recordsLeft == 0) {
            if (nextBlockOffset == footerOffset) {
                finish();
                return false;
            }
            nextBlock();
        }
        int at = cursor;
        if (payloadEnd - at < RECORD_PREFIX) {
            throw corruptRecord("its length prefix runs past the end of the payload");
        }
        int length = LittleEndian.getInt(payload, at);
        if (length < minRowSize) {
            throw corruptRecord(
                    "its length "
                            + Integer.toUnsignedString(length)
                            + " is less than the "
                            + minRowSize
                            + " bytes of a row of arity "
                            + arity);
        }
        if (length > payloadEnd - at - RECORD_PREFIX) {
            throw corruptRecord(
                    "its length "
                            + length
                            + " runs past the end of the payload ("
                            + (payloadEnd - at - RECORD_PREFIX)
                            + " bytes left)");
        }
        byte kind = payload[at + RECORD_PREFIX];
        if (kind < 0 || kind > RowKind.DELETE.toByteValue()) {
            throw corruptRecord("invalid row kind byte " + kind);
        }
        row.pointTo(payload, at + RECORD_PREFIX, length);
        if (bounds != null) {
            String problem = bounds.check(row);
            if (problem != null) {
                throw corruptRecord(problem);
            }
        }
        cursor = at + RECORD_PREFIX + length;
        recordsLeft--;
        if (recordsLeft == 0 && cursor != payloadEnd) {
            throw input.corrupt(
                    blockOffset,
                    (payloadEnd - cursor)
                            + " bytes follow the last of the block's "
                            + blocks.recordCount()
                            + " records");
        }
        recordsRead++;
        return true;
    }

    /** The current row: a view into the block, valid until the next call to {@link #next()}. */
    public BinaryRow row() {
        return row;
    }

    @Override
    public void close() throws IOException {
        blocks.close();
        input.close();
    }

    private void readFileHeader(long length, byte[] scratch) throws IOException {
        if (length < FILE_HEADER_SIZE) {
            throw input.corrupt(
                    length, "the file has " + length + " bytes, too few for a log file");
        }
        input.readFully(0, scratch, 0, FILE_HEADER_SIZE);
        int magic = LittleEndian.getInt(scratch, 0);
        if (magic != LogFormat.FILE_MAGIC) {
            throw input.corrupt(
                    0,
                    "not a Weir log file (magic "
                            + hex(magic)
                            + ", expected "
                            + hex(LogFormat.FILE_MAGIC)
                            + ")");
        }
        int version = LittleEndian.getInt(scratch, 4);
        if (version != LogFormat.VERSION) {
            throw input.corrupt(
                    4,
                    "unsupported format version "
                            + Integer.toUnsignedString(version)
                            + " (this reader reads version "
                            + LogFormat.VERSION
                            + ")");
        }
        if (length < LogFormat.MIN_FILE_SIZE) {
            throw input.corrupt(
                    length,
                    "the file has "
                            + length
                            + " bytes, too few for a header and a footer: it is truncated");
        }
    }

    private void nextBlock() throws IOException {
        long at = nextBlockOffset;
        if (blocksRead == footerBlocks) {
            throw input.corrupt(at, "a block beyond the " + footerBlocks + " the footer counts");
        }
        nextBlockOffset = blocks.read(at, footerOffset);
        blocksRead++;
        blockOffset = at;
        payload = blocks.payload();
        cursor = blocks.payloadStart();
        payloadEnd = blocks.payloadEnd();
        recordsLeft = blocks.recordCount();
    }

    private void finish() {
        if (finished) {
            return;
        }
        if (blocksRead != footerBlocks || recordsRead != footerRecords) {
            throw input.corrupt(
                    footerOffset,
                    "the footer counts "
                            + footerBlocks
                            + " blocks and "
                            + footerRecords
                            + " records, the file holds "
                            + blocksRead
                            + " and "
                            + recordsRead);
        }
        finished = true;
    }

    private CorruptFileException corruptRecord(String problem) {
        long records = blocks.recordCount();
        return input.corrupt(
                blockOffset,
                "record "
                        + (records - recordsLeft)
                        + " of the block's "
                        + records
                        + " (at payload offset "
                        + (cursor - blocks.payloadStart())
                        + "): "
                        + problem);
    }
}
