package io.weir.base;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.PageWriteStore;
import org.apache.parquet.schema.MessageType;

import java.util.List;

/**
 * The column writers of one row group, and when their pages end: parquet-java's {@code
 * ColumnWriteStoreV1} for a flat schema. A page ends as there: when its encoded bytes come within a
 * tenth of the page size, at the page row-count limit, or at the page value-count limit, checked at
 * the row counts parquet-java checks them at.
 */
final class FlatColumnStore {
    private static final float THRESHOLD_TOLERANCE_RATIO = 0.1f;

    private final FlatColumnWriter[] columns;
    private final ParquetProperties properties;
    private final long thresholdTolerance;
    private long rowCount;
    private long rowCountForNextSizeCheck;

    FlatColumnStore(MessageType schema, PageWriteStore pages, ParquetProperties properties) {
        List<ColumnDescriptor> descriptors = schema.getColumns();
        this.columns = new FlatColumnWriter[descriptors.size()];
        for (int i = 0; i < columns.length; i++) {
            ColumnDescriptor column = descriptors.get(i);
            if (properties.isBloomFilterEnabled(column)) {
                throw new IllegalArgumentException("Weir base files have no bloom filters");
            }
            if (!properties.getStatisticsEnabled(column)
                    || !properties.getSizeStatisticsEnabled(column)) {
                throw new IllegalArgumentException("Weir base files carry statistics");
            }
            columns[i] = new FlatColumnWriter(column, pages.getPageWriter(column), properties);
        }
        this.properties = properties;
        this.thresholdTolerance =
                (long) (properties.getPageSizeThreshold() * THRESHOLD_TOLERANCE_RATIO);
        this.rowCountForNextSizeCheck = properties.getMinRowCountForPageSizeCheck();
    }

    /** The writer of the {@code i}th column of the schema. */
    FlatColumnWriter column(int i) {
        return columns[i];
    }

    void endRecord() {
        ++rowCount;
        if (rowCount >= rowCountForNextSizeCheck) {
            sizeCheck();
        }
    }

    /** parquet-java's page-size check, step for step (a flat column has a value per row). */
    private void sizeCheck() {
        long minRecordToWait = Long.MAX_VALUE;
        int pageRowCountLimit = properties.getPageRowCountLimit();
        long rowCountForNextRowCountCheck = rowCount + pageRowCountLimit;
        for (FlatColumnWriter writer : columns) {
            long usedMem = writer.currentPageBufferedSize();
            long rows = rowCount - writer.rowsWrittenSoFar();
            long remainingMem = properties.getPageSizeThreshold() - usedMem;
            if (remainingMem <= thresholdTolerance
                    || rows >= pageRowCountLimit
                    || writer.valueCount() >= properties.getPageValueCountThreshold()) {
                writer.writePage();
                remainingMem = properties.getPageSizeThreshold();
            } else {
                rowCountForNextRowCountCheck =
                        Math.min(
                                rowCountForNextRowCountCheck,
                                writer.rowsWrittenSoFar() + pageRowCountLimit);
            }
            long rowsToFillPage =
                    usedMem == 0
                            ? properties.getMaxRowCountForPageSizeCheck()
                            : rows * remainingMem / usedMem;
            if (rowsToFillPage < minRecordToWait) {
                minRecordToWait = rowsToFillPage;
            }
        }
        if (minRecordToWait == Long.MAX_VALUE) {
            minRecordToWait = properties.getMinRowCountForPageSizeCheck();
        }
        if (properties.estimateNextSizeCheck()) {
            rowCountForNextSizeCheck =
                    rowCount
                            + Math.min(
                                    Math.max(
                                            minRecordToWait / 2,
                                            properties.getMinRowCountForPageSizeCheck()),
                                    properties.getMaxRowCountForPageSizeCheck());
        } else {
            rowCountForNextSizeCheck = rowCount + properties.getMinRowCountForPageSizeCheck();
        }
        if (rowCountForNextRowCountCheck < rowCountForNextSizeCheck) {
            rowCountForNextSizeCheck = rowCountForNextRowCountCheck;
        }
    }

    /** The bytes of the row group so far: pages written and pages being written. */
    long bufferedSize() {
        long total = 0;
        for (FlatColumnWriter column : columns) {
            total += column.totalBufferedSize();
        }
        return total;
    }

    /** Ends every column's last page and writes its dictionary page: the row group is complete. */
    void flush() {
        for (FlatColumnWriter column : columns) {
            if (rowCount > column.rowsWrittenSoFar()) {
                column.writePage();
            }
            column.finishChunk();
        }
    }

    void close() {
        for (FlatColumnWriter column : columns) {
            column.close();
        }
    }
}
