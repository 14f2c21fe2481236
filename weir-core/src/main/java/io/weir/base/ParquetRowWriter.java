package io.weir.base;

import io.weir.data.BinaryRow;

import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes rows into a Parquet file with parquet-java's file writer and value encoders, but without
 * its record layer ({@link RowShredder} hands each column writer its value), with column writers of
 * its own for flat schemas ({@link FlatColumnStore}) and with its own page buffers ({@link
 * RowGroupPages}). Row groups are cut as parquet-java's {@code ParquetWriter} cuts them (the
 * buffered size checked at the same row counts), so a file is byte for byte what {@code
 * ParquetWriter} writes with the same properties, except that column chunks that do not compress
 * are stored uncompressed ({@link RowGroupPages}).
 */
final class ParquetRowWriter {
    /** The footer key naming the object model that wrote the file, as parquet-java sets it. */
    private static final String MODEL_KEY = ParquetWriter.OBJECT_MODEL_NAME_PROP;

    private static final String MODEL = "weir";

    private final ParquetFileWriter file;
    private final RowShredder shredder;
    private final MessageType schema;
    private final Map<String, String> metadata;
    private final ParquetProperties properties;
    private final long rowGroupSize;
    private final RowGroupPages pages;

    private FlatColumnStore columns;
    private long nextRowGroupSize;
    private long rowCount; // in the current row group
    private long nextSizeCheck;
    private long lastRowGroupEnd;

    ParquetRowWriter(
            OutputFile output,
            RowShredder shredder,
            Map<String, String> metadata,
            BytesInputCompressor compressor,
            ParquetProperties properties,
            long rowGroupSize)
            throws IOException {
        if (!properties.getPageWriteChecksumEnabled()) {
            // RowGroupPages sizes each page header with its checksum (docs/format.md §5.2).
            throw new IllegalArgumentException("Weir base files carry page checksums");
        }
        this.shredder = shredder;
        this.schema = shredder.schema();
        this.metadata = new HashMap<>(metadata);
        this.metadata.put(MODEL_KEY, MODEL);
        this.properties = properties;
        this.rowGroupSize = rowGroupSize;
        this.nextRowGroupSize = rowGroupSize;
        this.file =
                new ParquetFileWriter(
                        output,
                        schema,
                        ParquetFileWriter.Mode.CREATE,
                        rowGroupSize,
                        ParquetWriter.MAX_PADDING_SIZE_DEFAULT,
                        null,
                        properties);
        file.start();
        pages = new RowGroupPages(schema, compressor);
        startRowGroup();
        nextSizeCheck = properties.getMinRowCountForPageSizeCheck();
    }

    private void startRowGroup() {
        columns = new FlatColumnStore(schema, pages, properties);
        shredder.writeTo(columns);
    }

    void write(BinaryRow row) throws IOException {
        shredder.write(row);
        columns.endRecord();
        rowCount++;
        if (rowCount >= nextSizeCheck) {
            checkRowGroupSize();
        }
    }

    /** The bytes written plus those buffered for the current row group. */
    long dataSize() {
        return lastRowGroupEnd + columns.bufferedSize();
    }

    /** As parquet-java: flush when within about two rows of the size, else look again halfway. */
    private void checkRowGroupSize() throws IOException {
        long buffered = columns.bufferedSize();
        long rowSize = buffered / rowCount;
        int min = properties.getMinRowCountForPageSizeCheck();
        int max = properties.getMaxRowCountForPageSizeCheck();
        if (buffered > nextRowGroupSize - 2 * rowSize) {
            flushRowGroup();
            startRowGroup();
            nextSizeCheck = Math.min(min, max); // parquet-java halves the new group's count: 0
            lastRowGroupEnd = file.getPos();
        } else {
            nextSizeCheck =
                    Math.min(
                            Math.max(
                                    min,
                                    (rowCount + (long) (nextRowGroupSize / (float) rowSize)) / 2),
                            rowCount + max);
        }
    }

    private void flushRowGroup() throws IOException {
        try {
            if (rowCount > 0) {
                file.startBlock(rowCount);
                columns.flush();
                pages.writeTo(file);
                rowCount = 0;
                file.endBlock();
                nextRowGroupSize = Math.min(file.getNextRowGroupSize(), rowGroupSize);
            }
        } finally {
            columns.close();
        }
    }

    /** Writes the last row group and the footer. */
    void close() throws IOException {
        try {
            flushRowGroup();
            file.end(metadata);
        } catch (IOException | RuntimeException e) {
            try {
                file.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            pages.release();
        }
        file.close();
    }

    /** The footer of the closed file. */
    ParquetMetadata footer() {
        return file.getFooter();
    }
}
