package io.weir.flink.lookup;

import io.weir.data.BinaryRow;
import io.weir.util.Murmur3;

import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable local hash index from key rows to rows, in one file memory-mapped read-only: the
 * rows of one file group of a dimension table. The JVM heap holds only the mapping objects; the
 * bytes live in the operating system's page cache, which keeps the hot part in memory and leaves
 * the rest on local disk, so a table larger than memory costs disk reads, not heap.
 *
 * <p>File layout: entries, then an open-addressing slot table. An entry is {@code [int keyLength]
 * [int rowLength] [key bytes] [row bytes]} (little-endian), never crossing a segment boundary
 * (padding fills the rest of a segment), so each entry is read from one {@link ByteBuffer}. A slot
 * is a long: the high 24 bits of the key's hash as a tag, and the entry's offset plus one (0 is an
 * empty slot); the table is at most half full, so a miss reads about two slots.
 *
 * <p>Keys are compared by their bytes after the first (the row-kind byte): equal key values have
 * equal bytes when both come from the same writer ({@link LookupKeys}). One key may map to many
 * rows (a join on a column that is not the primary key).
 */
final class LookupIndex implements Closeable {
    /** 1 GiB segments: a mapped buffer is at most 2 GiB. */
    static final int SEGMENT_BITS = 30;

    private static final long OFFSET_MASK = (1L << 40) - 1;

    private final Path file;
    private final ByteBuffer[] segments;
    private final int segmentBits;
    private final long segmentMask;
    private final long slotsStart;
    private final int slotMask;
    private final long entries;
    private final int arity;
    private byte[] scratch = new byte[64];

    private LookupIndex(
            Path file,
            ByteBuffer[] segments,
            int segmentBits,
            long slotsStart,
            int slots,
            long entries,
            int arity) {
        this.file = file;
        this.segments = segments;
        this.segmentBits = segmentBits;
        this.segmentMask = (1L << segmentBits) - 1;
        this.slotsStart = slotsStart;
        this.slotMask = slots - 1;
        this.entries = entries;
        this.arity = arity;
    }

    /** The hash by which a key is indexed: over its bytes after the row-kind byte. */
    static int hash(BinaryRow key) {
        return Murmur3.hashBytes(key.bytes(), key.offset() + 1, key.sizeInBytes() - 1, 17);
    }

    /** Rows written to {@code file} (created, must not exist), of {@code arity} fields. */
    static Builder builder(Path file, int arity) {
        return new Builder(file, arity, SEGMENT_BITS);
    }

    static Builder builder(Path file, int arity, int segmentBits) {
        return new Builder(file, arity, segmentBits);
    }

    long entries() {
        return entries;
    }

    /** The bytes of the index file: what it takes of local disk and, when hot, of page cache. */
    long sizeInBytes() {
        return slotsStart + 8L * (slotMask + 1);
    }

    /**
     * Adds a copy of every row under {@code key} (hash {@code hash}) to {@code out}, creating the
     * list on the first match; returns the list (null while nothing matched).
     */
    List<RowData> find(BinaryRow key, int hash, List<RowData> out) {
        int keyLength = key.sizeInBytes();
        long tag = (hash >>> 8) & 0xFFFFFFL;
        int i = hash & slotMask;
        while (true) {
            long slot = getLong(slotsStart + 8L * i);
            if (slot == 0L) {
                return out;
            }
            if ((slot >>> 40) == tag) {
                long entry = (slot & OFFSET_MASK) - 1;
                ByteBuffer segment = segments[(int) (entry >>> segmentBits)];
                int pos = (int) (entry & segmentMask);
                if (segment.getInt(pos) == keyLength && keyEquals(segment, pos + 8, key)) {
                    int rowLength = segment.getInt(pos + 4);
                    byte[] row = new byte[rowLength];
                    segment.get(pos + 8 + keyLength, row, 0, rowLength);
                    BinaryRowData flink = new BinaryRowData(arity);
                    flink.pointTo(MemorySegmentFactory.wrap(row), 0, rowLength);
                    if (out == null) {
                        out = new ArrayList<>(2);
                    }
                    out.add(flink);
                }
            }
            i = (i + 1) & slotMask;
        }
    }

    private boolean keyEquals(ByteBuffer segment, int pos, BinaryRow key) {
        int n = key.sizeInBytes() - 1;
        if (scratch.length < n) {
            scratch = new byte[Math.max(n, 2 * scratch.length)];
        }
        segment.get(pos + 1, scratch, 0, n);
        int from = key.offset() + 1;
        return Arrays.equals(scratch, 0, n, key.bytes(), from, from + n);
    }

    private long getLong(long at) {
        return segments[(int) (at >>> segmentBits)].getLong((int) (at & segmentMask));
    }

    /** Deletes the file; the mapping goes when the buffers are collected. */
    @Override
    public void close() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete lookup index file " + file, e);
        }
    }

    /**
     * Writes entries sequentially, and their (hash, offset) pairs to a side file, so that building
     * an index of any size holds no per-entry state on the heap; {@link #build} then appends the
     * slot table and fills it through the mapping.
     */
    static final class Builder implements Closeable {
        private final Path file;
        private final Path pairsFile;
        private final int arity;
        private final int segmentBits;
        private final long segmentSize;
        private final OutputStream out;
        private final DataOutputStream pairs;
        private final byte[] header = new byte[8];
        private final ByteBuffer headerView =
                ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        private long position;
        private long count;
        private boolean built;

        private Builder(Path file, int arity, int segmentBits) {
            this.file = file;
            this.pairsFile = file.resolveSibling(file.getFileName() + ".pairs");
            this.arity = arity;
            this.segmentBits = segmentBits;
            this.segmentSize = 1L << segmentBits;
            try {
                this.out =
                        new BufferedOutputStream(
                                Files.newOutputStream(file, StandardOpenOption.CREATE_NEW),
                                1 << 16);
                this.pairs =
                        new DataOutputStream(
                                new BufferedOutputStream(
                                        Files.newOutputStream(
                                                pairsFile, StandardOpenOption.CREATE_NEW),
                                        1 << 16));
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create lookup index file " + file, e);
            }
        }

        /** Adds a row under a key; {@code hash} is {@link LookupIndex#hash} of the key. */
        void add(BinaryRow key, int hash, BinaryRow row) {
            int size = 8 + key.sizeInBytes() + row.sizeInBytes();
            if (size > segmentSize) {
                throw new IllegalArgumentException(
                        "Cannot index a row of " + size + " bytes in " + file + ": too large");
            }
            try {
                long inSegment = position & (segmentSize - 1);
                if (inSegment + size > segmentSize) {
                    pad(segmentSize - inSegment);
                }
                headerView.putInt(0, key.sizeInBytes()).putInt(4, row.sizeInBytes());
                out.write(header);
                out.write(key.bytes(), key.offset(), key.sizeInBytes());
                out.write(row.bytes(), row.offset(), row.sizeInBytes());
                pairs.writeInt(hash);
                pairs.writeLong(position);
                position += size;
                count++;
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write lookup index file " + file, e);
            }
        }

        private void pad(long bytes) throws IOException {
            for (long i = 0; i < bytes; i++) {
                out.write(0);
            }
            position += bytes;
        }

        /** Finishes the file and maps it. */
        LookupIndex build() {
            try {
                pad((8 - (position & 7)) & 7);
                out.close();
                pairs.close();
                long slotsStart = position;
                if (count > 1L << 29) {
                    throw new IllegalArgumentException(
                            "Cannot index " + count + " rows in one lookup index " + file);
                }
                int slots = 2;
                while (slots < 2 * count) {
                    slots <<= 1;
                }
                long length = slotsStart + 8L * slots;
                if (length - 1 > OFFSET_MASK) {
                    throw new IllegalArgumentException("Lookup index too large: " + file);
                }
                ByteBuffer[] segments = map(length);
                LookupIndex index =
                        new LookupIndex(
                                file, segments, segmentBits, slotsStart, slots, count, arity);
                index.fill(pairsFile, count);
                Files.delete(pairsFile);
                built = true;
                return index;
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot build lookup index file " + file, e);
            }
        }

        private ByteBuffer[] map(long length) throws IOException {
            try (FileChannel channel =
                    FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                // Extending the file gives a sparse, zeroed slot table.
                channel.write(ByteBuffer.wrap(new byte[1]), length - 1);
                int n = (int) ((length + segmentSize - 1) >>> segmentBits);
                ByteBuffer[] segments = new ByteBuffer[n];
                for (int s = 0; s < n; s++) {
                    long start = (long) s << segmentBits;
                    MappedByteBuffer m =
                            channel.map(
                                    FileChannel.MapMode.READ_WRITE,
                                    start,
                                    Math.min(segmentSize, length - start));
                    segments[s] = m.order(ByteOrder.LITTLE_ENDIAN);
                }
                return segments;
            }
        }

        /** Releases the builder; the files of an index that was not built are deleted. */
        @Override
        public void close() {
            try {
                out.close();
                pairs.close();
                Files.deleteIfExists(pairsFile);
                if (!built) {
                    Files.deleteIfExists(file);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot close lookup index file " + file, e);
            }
        }
    }

    private void fill(Path pairsFile, long count) throws IOException {
        try (DataInputStream in =
                new DataInputStream(
                        new BufferedInputStream(Files.newInputStream(pairsFile), 1 << 16))) {
            for (long n = 0; n < count; n++) {
                int hash = in.readInt();
                long offset = in.readLong();
                long slot = (((hash >>> 8) & 0xFFFFFFL) << 40) | (offset + 1);
                int i = hash & slotMask;
                while (getLong(slotsStart + 8L * i) != 0L) {
                    i = (i + 1) & slotMask;
                }
                long at = slotsStart + 8L * i;
                segments[(int) (at >>> segmentBits)].putLong((int) (at & segmentMask), slot);
            }
        }
    }
}
