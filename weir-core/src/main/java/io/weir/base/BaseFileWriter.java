package io.weir.base;

import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.ValueStrings;
import io.weir.exceptions.ValidationException;
import io.weir.io.OutputFile;
import io.weir.types.Field;
import io.weir.types.RowType;

import org.apache.parquet.column.ParquetProperties;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Writes one Parquet base file (docs/format.md §5) from {@link BinaryRow}s.
 *
 * <p>The caller passes the rows of a file group's live state, in strictly ascending primary-key
 * order (any order for a table without primary key); the writer checks the order, since a reader
 * merges base files with logs by key. Columns are mapped as {@link ParquetTypes} says, each with
 * its Weir field id. {@link #close()} finishes the file and returns its {@link BaseFileInfo}, whose
 * column statistics come from the Parquet footer.
 *
 * <p>Not thread-safe. A row that cannot be written (out of order, a null in a NOT NULL column, a
 * value out of range) is rejected with an IllegalArgumentException before anything is written, so
 * the writer stays usable. I/O failures are thrown as {@link UncheckedIOException}s naming the
 * file; after one, call {@link #abort()} and delete the file.
 */
public final class BaseFileWriter {
    /** Footer key-value metadata: the version of this file format. */
    static final String FORMAT_VERSION_KEY = "weir.format-version";

    static final String FORMAT_VERSION = "1";

    /**
     * Footer key-value metadata: the field ids of the primary key (the sort order),
     * comma-separated.
     */
    static final String PRIMARY_KEY_KEY = "weir.primary-key";

    private static final int SIZE_CHECK_ROWS = 64;

    private final String path;
    private final RowType rowType;
    private final int[] keyPositions;
    private final KeyFields key;
    private final RowShredder shredder;
    private final Map<String, String> metadata;
    private final ParquetCodecs codecs = new ParquetCodecs();
    private final ParquetFiles.Output output;
    private final BaseFileWriteOptions options;

    /** The first rows, until the writer is opened; then null. */
    private DictionarySample sample;

    /** Null until the sample is full (or the file is closed). */
    private ParquetRowWriter writer;

    private BinaryRow firstRow;
    private final BinaryRow lastRow;
    private byte[] lastRowBytes = new byte[0];
    private long recordCount;
    private boolean closed;
    private long size;
    private long nextSizeCheck;

    /** A writer of rows of the table's own row type. */
    public BaseFileWriter(OutputFile file, Schema schema, BaseFileWriteOptions options) {
        this(file, schema, schema.rowType(), options);
    }

    /**
     * A writer of rows of {@code rowType}, which holds the primary-key columns of {@code schema}
     * (NOT NULL) under the same names.
     */
    public BaseFileWriter(
            OutputFile file, Schema schema, RowType rowType, BaseFileWriteOptions options) {
        this.path = file.path();
        this.rowType = rowType;
        this.keyPositions = keyPositions(schema, rowType);
        this.key = keyPositions.length == 0 ? null : KeyFields.of(rowType, keyPositions);
        this.lastRow = new BinaryRow(rowType.size());
        this.shredder = new RowShredder(rowType);
        this.metadata = footerMetadata(rowType, keyPositions);
        this.options = options;
        this.sample = new DictionarySample(rowType, options.pageSize());
        this.output = ParquetFiles.output(file);
        try {
            output.open();
        } catch (IOException e) {
            codecs.release();
            throw new UncheckedIOException("Cannot create base file " + path, e);
        }
    }

    /**
     * Opens the Parquet writer, with a dictionary for the columns the sample leaves to it and delta
     * encoding for the integer columns where the sample says it pays, and writes the sampled rows.
     */
    private void openWriter() throws IOException {
        boolean[] plain = sample.plainColumns();
        boolean[] delta =
                options.deltaEncoding()
                        ? sample.deltaColumns(shredder, plain)
                        : new boolean[plain.length];
        Set<String> deltaColumns = new HashSet<>();
        for (int c = 0; c < delta.length; c++) {
            if (delta[c]) {
                deltaColumns.add(rowType.field(c).name());
            }
        }
        ParquetProperties.Builder properties =
                ParquetProperties.builder()
                        .withPageSize(options.pageSize())
                        .withDictionaryPageSize(options.pageSize())
                        .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                        .withPageWriteChecksumEnabled(true)
                        .withAllocator(new SlabAllocator())
                        .withValuesWriterFactory(new ValueWriters(deltaColumns));
        for (int c = 0; c < plain.length; c++) {
            if (plain[c] || delta[c]) {
                properties.withDictionaryEncoding(rowType.field(c).name(), false);
            }
        }
        writer =
                new ParquetRowWriter(
                        output,
                        shredder,
                        metadata,
                        codecs.getCompressor(ParquetCodecs.codecName(options.compression())),
                        properties.build(),
                        options.rowGroupSize());
        BinaryRow row = new BinaryRow(rowType.size());
        for (int r = 0; r < sample.rowCount(); r++) {
            writer.write(sample.pointTo(row, r));
        }
        sample = null;
    }

    private static int[] keyPositions(Schema schema, RowType rowType) {
        List<String> primaryKey = schema.primaryKey();
        int[] positions = new int[primaryKey.size()];
        for (int i = 0; i < positions.length; i++) {
            String name = primaryKey.get(i);
            positions[i] = rowType.indexOf(name);
            ValidationException.check(
                    positions[i] >= 0,
                    "Cannot write a base file of %s: primary-key column '%s' is missing",
                    rowType,
                    name);
            ValidationException.check(
                    !rowType.type(positions[i]).nullable(),
                    "Cannot write a base file of %s: primary-key column '%s' must be NOT NULL",
                    rowType,
                    name);
        }
        return positions;
    }

    private static Map<String, String> footerMetadata(RowType rowType, int[] keyPositions) {
        List<String> keyIds = new ArrayList<>();
        for (int pos : keyPositions) {
            keyIds.add(String.valueOf(rowType.field(pos).id()));
        }
        return Map.of(
                FORMAT_VERSION_KEY, FORMAT_VERSION, PRIMARY_KEY_KEY, String.join(",", keyIds));
    }

    public String path() {
        return path;
    }

    /** The number of rows written so far. */
    public long recordCount() {
        return recordCount;
    }

    /**
     * The bytes written plus those buffered for the current row group, for rolling files; updated
     * every {@value #SIZE_CHECK_ROWS} rows, as Parquet's size asks every column writer.
     */
    public long estimatedSize() {
        if (writer == null) {
            return sample.size();
        }
        if (recordCount >= nextSizeCheck) {
            size = writer.dataSize();
            nextSizeCheck = recordCount + SIZE_CHECK_ROWS;
        }
        return size;
    }

    /** Appends a row; the row may be reused by the caller as soon as this returns. */
    public void write(BinaryRow row) {
        if (closed) {
            throw new IllegalStateException("Cannot write to base file " + path + ": it is closed");
        }
        if (row.arity() != rowType.size()) {
            throw new IllegalArgumentException(
                    "Cannot write a row of arity "
                            + row.arity()
                            + " to base file "
                            + path
                            + " of "
                            + rowType);
        }
        String problem = shredder.problem(row);
        if (problem != null) {
            throw new IllegalArgumentException(
                    "Cannot write a row to base file " + path + ": " + problem);
        }
        if (key != null) {
            checkAndRememberKey(row);
        }
        try {
            if (writer != null) {
                writer.write(row);
            } else if (sample.add(row)) {
                openWriter();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write base file " + path, e);
        }
        recordCount++;
    }

    private void checkAndRememberKey(BinaryRow row) {
        if (recordCount == 0) {
            firstRow = row.copy();
        } else if (key.compare(lastRow, row) >= 0) {
            throw new IllegalArgumentException(
                    "Cannot write a row to base file "
                            + path
                            + ": rows must be in strictly ascending primary-key order, but key "
                            + keyTexts(row)
                            + " follows "
                            + keyTexts(lastRow));
        }
        int size = row.sizeInBytes();
        if (lastRowBytes.length < size) {
            lastRowBytes = new byte[Math.max(size, 2 * lastRowBytes.length)];
        }
        row.copyTo(lastRowBytes, 0);
        lastRow.pointTo(lastRowBytes, 0, size);
    }

    private List<String> keyTexts(BinaryRow row) {
        List<String> texts = new ArrayList<>(keyPositions.length);
        for (int pos : keyPositions) {
            texts.add(ValueStrings.toText(row.get(pos, rowType.type(pos)), rowType.type(pos)));
        }
        return texts;
    }

    /** Finishes the file (writes the footer) and describes it. */
    public BaseFileInfo close() {
        if (closed) {
            throw new IllegalStateException("Base file " + path + " is already closed");
        }
        closed = true;
        try {
            if (writer == null) {
                openWriter();
            }
            writer.close();
        } catch (IOException e) {
            output.abort();
            throw new UncheckedIOException("Cannot finish base file " + path, e);
        } catch (RuntimeException e) {
            output.abort();
            throw e;
        } finally {
            codecs.release();
        }
        boolean hasKeys = key != null && recordCount > 0;
        return new BaseFileInfo(
                path,
                recordCount,
                output.size(),
                hasKeys ? keyTexts(firstRow) : List.of(),
                hasKeys ? keyTexts(lastRow) : List.of(),
                FooterStats.of(writer.footer(), rowType));
    }

    /**
     * Gives up the file: closes the stream without a footer, leaving an invalid file for the caller
     * to delete. Does nothing if already closed.
     */
    public void abort() {
        if (!closed) {
            closed = true;
            codecs.release();
            output.abort();
        }
    }

    @Override
    public String toString() {
        return "BaseFileWriter{"
                + path
                + ", "
                + rowType.fields().stream().map(Field::name).collect(Collectors.joining(", "))
                + "}";
    }
}
