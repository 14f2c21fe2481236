package io.weir.base;

import io.weir.util.Compressibility;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriteStore;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.bloomfilter.BloomFilterWriteStore;
import org.apache.parquet.column.values.bloomfilter.BloomFilterWriter;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.ParquetEncodingException;
import org.apache.parquet.schema.MessageType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The compressed pages of one row group, column by column, until {@link #writeTo} hands them to the
 * file writer a column chunk at a time; then the same buffers take the next row group.
 *
 * <p>It takes the place of parquet-java's {@code ColumnChunkPageWriteStore}, which allocates and
 * fills two fresh arrays of each page's compressed size (one only to checksum it, one to keep it).
 * Here a page is compressed into the codec's reused buffer and copied once, into its column's
 * slabs; the file writer then writes headers, checksums, statistics and column and offset indexes
 * exactly as it does for parquet-java's store, so the file is byte for byte the same ({@code
 * ParquetRowWriterTest}) wherever compression pays. {@link PageWriter#getMemSize} counts page
 * headers too, as parquet-java's does, because row groups are cut by that size.
 *
 * <p>Where compression does not pay, a column chunk is stored uncompressed: the chunk's first page
 * decides, if its values are plain or delta-encoded, by the rule log blocks follow ({@link
 * Compressibility}), and the chunk's other pages follow it, as a column chunk has one codec. A
 * column of random text or of bytes compressed already then costs the compressor one page per row
 * group, and every reader nothing.
 *
 * <p>The slabs of a large column come from {@link LargeArrays} and go back there when the file is
 * done ({@link #release}), so the files a compaction writes one after another reuse them.
 *
 * <p>Format 1.0 data pages with checksums only (what {@link BaseFileWriter} writes), no bloom
 * filters, no encryption.
 */
final class RowGroupPages implements PageWriteStore, BloomFilterWriteStore {
    private static final ParquetMetadataConverter HEADERS = new ParquetMetadataConverter();

    private final Map<ColumnDescriptor, ColumnPages> columns = new LinkedHashMap<>();
    private final ByteArrayOutputStream header = new ByteArrayOutputStream(64);
    private final CRC32 crc = new CRC32();

    RowGroupPages(MessageType schema, BytesInputCompressor compressor) {
        for (ColumnDescriptor column : schema.getColumns()) {
            columns.put(column, new ColumnPages(column, compressor));
        }
    }

    @Override
    public PageWriter getPageWriter(ColumnDescriptor column) {
        return columns.get(column);
    }

    @Override
    public BloomFilterWriter getBloomFilterWriter(ColumnDescriptor column) {
        throw new UnsupportedOperationException("Weir base files have no bloom filters");
    }

    /** Nothing to release until {@link #release}: the buffers stay for the next row group. */
    @Override
    public void close() {}

    /**
     * Once the file is closed, whether its footer was written or the close failed: hands the page
     * slabs on to later files ({@link LargeArrays}). The pages must not be used afterwards.
     */
    void release() {
        for (ColumnPages column : columns.values()) {
            column.release();
        }
    }

    /** Writes every column chunk of the row group, in schema order, and empties the buffers. */
    void writeTo(ParquetFileWriter file) throws IOException {
        for (ColumnPages column : columns.values()) {
            column.writeTo(file);
        }
    }

    /** One data page of a column chunk: where its compressed bytes are, and what describes it. */
    private record Page(
            byte[] slab,
            int offset,
            int length,
            int uncompressedSize,
            int valueCount,
            int rowCount,
            Statistics<?> statistics,
            SizeStatistics sizeStatistics,
            Encoding rlEncoding,
            Encoding dlEncoding,
            Encoding valuesEncoding) {}

    /**
     * The pages of one column chunk, in slabs that a page never straddles (the file writer
     * checksums a page as one array). Slabs grow from {@link #FIRST_SLAB} to {@link #MAX_SLAB} as a
     * chunk grows, so a small column holds little, and are kept for the next row group.
     */
    private final class ColumnPages extends OutputStream implements PageWriter {
        private static final int FIRST_SLAB = 64 << 10;
        private static final int MAX_SLAB = 8 << 20;

        private final ColumnDescriptor column;
        private final BytesInputCompressor compressor;
        private final List<Page> pages = new ArrayList<>();
        private final List<byte[]> slabs = new ArrayList<>();
        private CompressionCodecName codec; // this chunk's, once its first page has decided it
        private int slab = -1; // the index of the slab being filled
        private int position; // in it
        private long size;
        private long headerBytes;
        private long valueCount;
        private DictionaryPage dictionary;

        ColumnPages(ColumnDescriptor column, BytesInputCompressor compressor) {
            this.column = column;
            this.compressor = compressor;
        }

        @Override
        public void writePage(
                BytesInput page,
                int valueCount,
                int rowCount,
                Statistics<?> statistics,
                SizeStatistics sizeStatistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding)
                throws IOException {
            long uncompressedSize = page.size();
            if (uncompressedSize > Integer.MAX_VALUE) {
                throw new ParquetEncodingException(
                        "Cannot write a Parquet page of more than 2 GiB: " + uncompressedSize);
            }
            BytesInput stored = stored(page, uncompressedSize, valuesEncoding);
            int length = (int) stored.size();
            byte[] into = slabFor(length);
            int offset = position;
            stored.writeAllTo(this);
            size += length;
            crc.reset();
            crc.update(into, offset, length);
            header.reset();
            HEADERS.writeDataPageV1Header(
                    (int) uncompressedSize,
                    length,
                    valueCount,
                    rlEncoding,
                    dlEncoding,
                    valuesEncoding,
                    (int) crc.getValue(),
                    header);
            headerBytes += header.size();
            this.valueCount += valueCount;
            pages.add(
                    new Page(
                            into,
                            offset,
                            length,
                            (int) uncompressedSize,
                            valueCount,
                            rowCount,
                            statistics,
                            sizeStatistics,
                            rlEncoding,
                            dlEncoding,
                            valuesEncoding));
        }

        /**
         * A page as the chunk stores it: compressed into the codec's reused buffer, or the page
         * itself (its bytes are in parquet-java's and Weir's own value buffers, which can be read
         * again). The first page decides the chunk's codec if its values are not dictionary ids
         * (plain or delta-encoded): dictionary ids say nothing of the dictionary, which comes last
         * and usually compresses well, so such a chunk keeps the table's codec. {@code values} is
         * null for the dictionary page.
         */
        private BytesInput stored(BytesInput page, long uncompressedSize, Encoding values)
                throws IOException {
            if (codec == CompressionCodecName.UNCOMPRESSED) {
                return page;
            }
            BytesInput compressed = compressor.compress(page);
            if (codec == null) {
                if (values != null
                        && !values.usesDictionary()
                        && !Compressibility.worthStoringCompressed(
                                uncompressedSize, compressed.size())) {
                    codec = CompressionCodecName.UNCOMPRESSED;
                    return page;
                }
                codec = compressor.getCodecName();
            }
            return compressed;
        }

        /** The slab to copy a page of {@code length} bytes into, from {@link #position}. */
        private byte[] slabFor(int length) {
            if (slab >= 0 && slabs.get(slab).length - position >= length) {
                return slabs.get(slab);
            }
            position = 0;
            slab++;
            if (slab < slabs.size() && slabs.get(slab).length >= length) {
                return slabs.get(slab);
            }
            int grown = slab == 0 ? FIRST_SLAB : Math.min(2 * slabs.get(slab - 1).length, MAX_SLAB);
            byte[] fresh = LargeArrays.take(Math.max(grown, length));
            if (slab < slabs.size()) {
                LargeArrays.give(slabs.set(slab, fresh));
            } else {
                slabs.add(fresh);
            }
            return fresh;
        }

        /** Receives the compressed page from the codec's buffer: the one copy. */
        @Override
        public void write(byte[] from, int offset, int length) {
            System.arraycopy(from, offset, slabs.get(slab), position, length);
            position += length;
        }

        @Override
        public void write(int b) {
            slabs.get(slab)[position++] = (byte) b;
        }

        @Override
        public void writePage(
                BytesInput page,
                int valueCount,
                int rowCount,
                Statistics<?> statistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding) {
            throw new UnsupportedOperationException("Data pages come with size statistics");
        }

        @Override
        @Deprecated
        public void writePage(
                BytesInput page,
                int valueCount,
                Statistics<?> statistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding) {
            throw new UnsupportedOperationException("Data pages come with their row count");
        }

        @Override
        public void writePageV2(
                int rowCount,
                int nullCount,
                int valueCount,
                BytesInput repetitionLevels,
                BytesInput definitionLevels,
                Encoding dataEncoding,
                BytesInput data,
                Statistics<?> statistics) {
            throw new UnsupportedOperationException("Weir base files have format 1.0 pages");
        }

        @Override
        public void writeDictionaryPage(DictionaryPage page) throws IOException {
            if (dictionary != null) {
                throw new ParquetEncodingException("Only one dictionary page is allowed");
            }
            // Once per column chunk: a copy of its own, since the codec reuses its buffer.
            BytesInput stored =
                    BytesInput.copy(stored(page.getBytes(), page.getBytes().size(), null));
            dictionary =
                    new DictionaryPage(
                            stored,
                            (int) page.getBytes().size(),
                            page.getDictionarySize(),
                            page.getEncoding());
        }

        void writeTo(ParquetFileWriter file) throws IOException {
            file.startColumn(column, valueCount, codec != null ? codec : compressor.getCodecName());
            if (dictionary != null) {
                file.writeDictionaryPage(dictionary);
            }
            for (Page p : pages) {
                file.writeDataPage(
                        p.valueCount(),
                        p.uncompressedSize(),
                        BytesInput.from(p.slab(), p.offset(), p.length()),
                        p.statistics(),
                        p.rowCount(),
                        p.rlEncoding(),
                        p.dlEncoding(),
                        p.valuesEncoding(),
                        null,
                        null,
                        p.sizeStatistics());
            }
            file.endColumn();
            pages.clear();
            slab = -1;
            position = 0;
            size = 0;
            headerBytes = 0;
            valueCount = 0;
            dictionary = null;
            codec = null;
        }

        /** Nothing to release; the slabs stay for the next row group. */
        @Override
        public void close() {}

        /** Hands the slabs on to the next file's pages ({@link LargeArrays}). */
        void release() {
            pages.clear();
            for (byte[] s : slabs) {
                LargeArrays.give(s);
            }
            slabs.clear();
            slab = -1;
            position = 0;
        }

        @Override
        public long getMemSize() {
            return size + headerBytes;
        }

        @Override
        public long allocatedSize() {
            long bytes = 0;
            for (byte[] s : slabs) {
                bytes += s.length;
            }
            return bytes;
        }

        @Override
        public String memUsageString(String prefix) {
            return prefix + " " + column + " pages: " + size + " bytes in " + pages.size();
        }
    }
}
