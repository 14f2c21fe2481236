package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.data.RowKind;
import io.weir.io.OutputFile;
import io.weir.io.PositionOutputStream;
import io.weir.options.LogCodec;
import io.weir.util.Compressibility;
import io.weir.util.LittleEndian;

import java.io.IOException;
import java.util.zip.CRC32C;

import static io.weir.log.LogFormat.BLOCK_HEADER_SIZE;
import static io.weir.log.LogFormat.BLOCK_LENGTH;
import static io.weir.log.LogFormat.BLOCK_MAGIC;
import static io.weir.log.LogFormat.CODEC;
import static io.weir.log.LogFormat.CRC_SIZE;
import static io.weir.log.LogFormat.FIELD_COUNT;
import static io.weir.log.LogFormat.PAYLOAD;
import static io.weir.log.LogFormat.RAW_SIZE;
import static io.weir.log.LogFormat.RECORD_COUNT;
import static io.weir.log.LogFormat.RECORD_PREFIX;
import static io.weir.log.LogFormat.SCHEMA_ID;

/**
 * Writes one log file (docs/format.md §4): rows are appended to a block buffer, and a full block is
 * compressed, checksummed and written. The caller writes the rows sorted by primary key.
 *
 * <p>Appending allocates nothing: the block buffer, the compression buffer and the codec state are
 * reused for every block, and grow only when a record does not fit. Writers of files written one
 * after another can share them too ({@link LogWriteBuffers}), so that a new file allocates nothing
 * but its stream.
 *
 * <p>A block is stored compressed only when compression saves at least an eighth of it ({@link
 * Compressibility#worthStoringCompressed}); otherwise it is stored as it is (codec NONE), which
 * every reader handles. After such a block the writer stores the next 1, then 3, 7 and 15 blocks
 * without trying, as long as the blocks it tries still do not compress: data that does not compress
 * (random text, bytes compressed already) costs the compressor one block in 16, and any block that
 * compresses well ends the skipping.
 *
 * <p>Not thread-safe. {@link #close()} writes the footer and makes the file readable; {@link
 * #abort()} leaves an unreadable file for the caller to delete.
 */
public final class LogFileWriter {
    private static final int INITIAL_PAYLOAD_CAPACITY = 64 << 10;

    /**
     * Blocks stored without trying after poorly compressed ones: at most 2^6 - 1, so that data that
     * does not compress (random text) costs a trial every 64 blocks.
     */
    private static final int MAX_POOR_BLOCKS = 6;

    private final String path;
    private final LogWriterOptions options;
    private final int blockSize;
    private final int minRowSize;
    private final PositionOutputStream out;
    private final LogWriteBuffers buffers;

    /** Whether the buffers are this writer's own (released with it) rather than shared. */
    private final boolean ownBuffers;

    private final BlockCodec compressor;
    private final CRC32C crc;

    /** The block being filled: records from {@link LogFormat#PAYLOAD}, room for the CRC after. */
    private byte[] block;

    private byte[] compressed;
    private int payloadLength;
    private int blockRecords;
    private long blockCount;
    private long recordCount;
    private long deleteCount;
    private LogFileInfo info;
    private boolean aborted;

    /**
     * Blocks tried in a row that compression did not make worth storing compressed: carried from
     * file to file in shared {@link LogWriteBuffers}, whose files hold the same table's rows, so
     * that a flush's files do not each try their first blocks again.
     */
    private int poorBlocks;

    /** Blocks still to store without trying to compress them; carried like {@link #poorBlocks}. */
    private int skipCompression;

    /** Creates the file (it must not exist) and writes the file header. */
    public LogFileWriter(OutputFile file, LogWriterOptions options) throws IOException {
        this(file, options, new LogWriteBuffers(options.codec()), true);
    }

    /**
     * Creates the file (it must not exist) and writes the file header, using {@code buffers} (which
     * must be of the options' codec) until this writer is closed or aborted. The caller keeps
     * owning them.
     */
    public LogFileWriter(OutputFile file, LogWriterOptions options, LogWriteBuffers buffers)
            throws IOException {
        this(file, options, buffers, false);
    }

    private LogFileWriter(
            OutputFile file, LogWriterOptions options, LogWriteBuffers buffers, boolean own)
            throws IOException {
        if (buffers.codec() != options.codec()) {
            throw new IllegalArgumentException(
                    "Log write buffers of codec "
                            + buffers.codec()
                            + " cannot write "
                            + options.codec());
        }
        this.path = file.path();
        this.options = options;
        this.blockSize = options.blockSize();
        this.minRowSize = options.minRowSize();
        buffers.acquire(path);
        this.buffers = buffers;
        this.ownBuffers = own;
        try {
            this.compressor = buffers.compressor();
            this.crc = buffers.crc;
            int initial = blockCapacity(Math.min(blockSize, INITIAL_PAYLOAD_CAPACITY));
            this.block =
                    buffers.block != null && buffers.block.length >= initial
                            ? buffers.block
                            : new byte[initial];
            this.compressed = buffers.compressed;
            this.poorBlocks = buffers.poorBlocks;
            this.skipCompression = buffers.skipCompression;
            this.out = file.create();
        } catch (IOException | RuntimeException e) {
            releaseBuffers();
            throw e;
        }
        try {
            byte[] header = new byte[LogFormat.FILE_HEADER_SIZE];
            LittleEndian.putInt(header, 0, LogFormat.FILE_MAGIC);
            LittleEndian.putInt(header, 4, LogFormat.VERSION);
            out.write(header);
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    public String path() {
        return path;
    }

    public LogWriterOptions options() {
        return options;
    }

    /** Appends a row; its arity must be the options' arity. */
    public void write(BinaryRow row) throws IOException {
        if (row.arity() != options.arity()) {
            throw new IllegalArgumentException(
                    "Cannot write a row of arity "
                            + row.arity()
                            + " to log file "
                            + path
                            + " of arity "
                            + options.arity());
        }
        write(row.bytes(), row.offset(), row.sizeInBytes());
    }

    /**
     * Appends the bytes of one row (in {@link BinaryRow} layout, starting with the row kind byte),
     * for example straight from a write buffer page.
     */
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (info != null || aborted) {
            throw new IllegalStateException("Cannot write to closed log file " + path);
        }
        if (length < minRowSize || length > LogFormat.MAX_PAYLOAD - RECORD_PREFIX) {
            throw new IllegalArgumentException(
                    "Cannot write a row of " + length + " bytes to log file " + path + badSize());
        }
        byte kind = bytes[offset];
        if (kind < 0 || kind > RowKind.DELETE.toByteValue()) {
            throw new IllegalArgumentException(
                    "Cannot write a row with invalid row kind byte "
                            + kind
                            + " to log file "
                            + path);
        }
        int recordSize = RECORD_PREFIX + length;
        if (payloadLength > 0 && payloadLength + recordSize > blockSize) {
            flushBlock();
        }
        if (PAYLOAD + payloadLength + recordSize + CRC_SIZE > block.length) {
            growBlock(payloadLength + recordSize);
        }
        int at = PAYLOAD + payloadLength;
        LittleEndian.putInt(block, at, length);
        System.arraycopy(bytes, offset, block, at + RECORD_PREFIX, length);
        payloadLength += recordSize;
        blockRecords++;
        recordCount++;
        if (RowKind.isRetraction(kind)) {
            deleteCount++;
        }
        if (payloadLength >= blockSize) {
            flushBlock();
        }
    }

    /** The number of records written so far. */
    public long recordCount() {
        return recordCount;
    }

    /**
     * Writes the last block and the footer and closes the file. Calling it again returns the same
     * result.
     */
    public LogFileInfo close() throws IOException {
        if (info != null) {
            return info;
        }
        if (aborted) {
            throw new IllegalStateException("Cannot close aborted log file " + path);
        }
        try {
            if (blockRecords > 0) {
                flushBlock();
            }
            writeFooter();
            long size = out.getPos();
            out.close();
            info = new LogFileInfo(path, recordCount, size, deleteCount);
            releaseBuffers();
            return info;
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    /** Closes the file without a footer (readers reject it) and releases resources. */
    public void abort() {
        if (info != null || aborted) {
            return;
        }
        aborted = true;
        releaseBuffers();
        out.abort();
    }

    private void flushBlock() throws IOException {
        byte[] target = block;
        int storedLength = payloadLength;
        LogCodec codec = LogCodec.NONE;
        if (compressor != null && skipCompression > 0) {
            skipCompression--;
        } else if (compressor != null) {
            int capacity = compressor.maxCompressedLength(payloadLength);
            if (PAYLOAD + capacity + CRC_SIZE > compressed.length) {
                compressed = new byte[PAYLOAD + capacity + CRC_SIZE];
            }
            int n =
                    compressor.compress(
                            block, PAYLOAD, payloadLength, compressed, PAYLOAD, capacity);
            if (Compressibility.worthStoringCompressed(payloadLength, n)) {
                target = compressed;
                storedLength = n;
                codec = compressor.codec();
                poorBlocks = 0;
            } else {
                poorBlocks = Math.min(poorBlocks + 1, MAX_POOR_BLOCKS);
                skipCompression = (1 << poorBlocks) - 1;
            }
        }
        LittleEndian.putInt(target, 0, BLOCK_MAGIC);
        LittleEndian.putInt(target, BLOCK_LENGTH, BLOCK_HEADER_SIZE + storedLength);
        LittleEndian.putInt(target, SCHEMA_ID, options.schemaId());
        LittleEndian.putInt(target, FIELD_COUNT, options.arity());
        LittleEndian.putInt(target, RECORD_COUNT, blockRecords);
        // The codec byte and three reserved zero bytes.
        LittleEndian.putInt(target, CODEC, codec.id());
        LittleEndian.putInt(target, RAW_SIZE, payloadLength);
        int end = PAYLOAD + storedLength;
        crc.reset();
        crc.update(target, 0, end);
        LittleEndian.putInt(target, end, (int) crc.getValue());
        out.write(target, 0, end + CRC_SIZE);
        blockCount++;
        payloadLength = 0;
        blockRecords = 0;
    }

    private void writeFooter() throws IOException {
        byte[] footer = new byte[LogFormat.FOOTER_SIZE];
        LittleEndian.putInt(footer, 0, LogFormat.FOOTER_MAGIC);
        LittleEndian.putInt(footer, 4, (int) blockCount);
        LittleEndian.putLong(footer, 8, recordCount);
        crc.reset();
        crc.update(footer, 0, LogFormat.FOOTER_CRC);
        LittleEndian.putInt(footer, LogFormat.FOOTER_CRC, (int) crc.getValue());
        out.write(footer);
    }

    /** Grows the block buffer (doubling, up to the block size) to hold {@code payload} bytes. */
    private void growBlock(int payload) {
        int current = block.length - PAYLOAD - CRC_SIZE;
        int target = Math.max(payload, (int) Math.min(2L * current, blockSize));
        byte[] grown = new byte[blockCapacity(target)];
        System.arraycopy(block, PAYLOAD, grown, PAYLOAD, payloadLength);
        block = grown;
    }

    private static int blockCapacity(int payload) {
        return PAYLOAD + payload + CRC_SIZE;
    }

    private String badSize() {
        return ": a row of arity "
                + options.arity()
                + " has at least "
                + minRowSize
                + " bytes, and at most "
                + (LogFormat.MAX_PAYLOAD - RECORD_PREFIX);
    }

    /** Gives the (possibly grown) buffers back for the next writer, or closes its own. */
    private void releaseBuffers() {
        if (ownBuffers) {
            buffers.close();
            return;
        }
        buffers.block = block;
        buffers.compressed = compressed;
        buffers.poorBlocks = poorBlocks;
        buffers.skipCompression = skipCompression;
        buffers.release();
    }
}
