package io.weir.base;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.ValidationException;
import io.weir.io.InputFile;
import io.weir.types.Field;
import io.weir.types.RowType;

import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Reads the rows of a base file (docs/format.md §5), in file order, as reused {@link BinaryRow}s.
 *
 * <p>The caller names the columns it wants as positions in the table's row type, in any order; the
 * rows have those fields in that order. Columns are found in the file by field id, so a renamed
 * column still reads and a column added after the file was written reads as null. Whether a value
 * can be null follows the file: an optional column's nulls read as nulls whatever the table type.
 *
 * <p>A row group whose requested columns use only plain and dictionary encodings (every row group
 * Weir writes) is decoded column by column ({@link ColumnDecoder}); any other (other writers' delta
 * encodings, say) through parquet-java's record reader. Both give the same rows.
 *
 * <p>Failures name the file: {@link UncheckedIOException} when the file is missing or the file
 * system fails, {@link CorruptFileException} when the bytes are not a readable base file, {@link
 * ValidationException} when a requested column cannot be read as its table type. Not thread-safe.
 */
public final class BaseFileReader implements AutoCloseable {
    private final String path;
    private final RowType projectedType;
    private final ParquetCodecs codecs = new ParquetCodecs();
    private final ParquetFileReader reader;
    private final List<BlockMetaData> rowGroups;
    private final MessageColumnIO columnIO; // null if no requested column is in the file
    private final RowMaterializer materializer;
    private final boolean columnarReads;
    private final ColumnDecoder[] decoders;
    private final Set<ColumnPath> requestedPaths = new HashSet<>();
    private final int[] absentPositions; // requested fields the file does not have: null
    private final BinaryRowWriter writer;
    private RecordReader<BinaryRow> records;
    private boolean columnar; // the current row group is read by the decoders
    private int columnarRowGroups;
    private int rowGroupIndex;
    private long rowGroupOffset;
    private long rowsLeftInRowGroup;
    private BinaryRow row;

    /** Reads every column of {@code rowType}. */
    public BaseFileReader(InputFile file, RowType rowType) {
        this(file, rowType, IntStream.range(0, rowType.size()).toArray());
    }

    /**
     * Reads the fields of {@code rowType} at {@code projection}, in that order.
     *
     * @param rowType the table's row type (fields are matched to the file by id)
     * @param projection distinct positions in {@code rowType}
     */
    public BaseFileReader(InputFile file, RowType rowType, int[] projection) {
        this(file, rowType, projection, true);
    }

    /** With {@code columnarReads} false, every row group goes through the record reader. */
    BaseFileReader(InputFile file, RowType rowType, int[] projection, boolean columnarReads) {
        this.path = file.path();
        this.columnarReads = columnarReads;
        this.projectedType = project(rowType, projection);
        long length;
        try {
            length = file.length();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open base file " + path, e);
        }
        ParquetReadOptions options =
                ParquetReadOptions.builder(new PlainParquetConfiguration())
                        .withCodecFactory(codecs)
                        .usePageChecksumVerification(true)
                        .build();
        try {
            this.reader = ParquetFileReader.open(ParquetFiles.input(file, length), options);
        } catch (IOException | RuntimeException e) {
            codecs.release();
            throw failure(e, Math.max(0, length - 8)); // the footer length and magic
        }
        try {
            this.rowGroups = reader.getRowGroups();
            FileMetaData metadata = reader.getFooter().getFileMetaData();
            MessageType fileSchema = metadata.getSchema();
            List<Type> requested = new ArrayList<>();
            int[] columnPositions = resolveColumns(fileSchema, requested);
            this.materializer = new RowMaterializer(projectedType, requested, columnPositions);
            this.decoders = new ColumnDecoder[columnPositions.length];
            this.writer = new BinaryRowWriter(projectedType.size());
            this.absentPositions = absentPositions(projectedType.size(), columnPositions);
            if (requested.isEmpty()) {
                this.columnIO = null;
            } else {
                MessageType requestedSchema = new MessageType(fileSchema.getName(), requested);
                reader.setRequestedSchema(requestedSchema);
                this.columnIO =
                        new ColumnIOFactory(metadata.getCreatedBy())
                                .getColumnIO(requestedSchema, fileSchema, true);
                List<ColumnDescriptor> columns = requestedSchema.getColumns();
                for (int k = 0; k < columnPositions.length; k++) {
                    int pos = columnPositions[k];
                    ColumnDescriptor column = columns.get(k);
                    if (ColumnDecoder.decodes(column)) {
                        decoders[k] = ColumnDecoders.of(column, projectedType.type(pos), pos);
                    }
                    requestedPaths.add(ColumnPath.get(column.getPath()));
                }
            }
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    private static RowType project(RowType rowType, int[] projection) {
        boolean[] used = new boolean[rowType.size()];
        for (int pos : projection) {
            if (pos < 0 || pos >= rowType.size() || used[pos]) {
                throw new IllegalArgumentException(
                        "Invalid projection: position "
                                + pos
                                + " is out of range or repeated (row type "
                                + rowType
                                + ")");
            }
            used[pos] = true;
        }
        return rowType.project(projection);
    }

    private static int[] absentPositions(int arity, int[] columnPositions) {
        boolean[] present = new boolean[arity];
        for (int pos : columnPositions) {
            present[pos] = true;
        }
        return IntStream.range(0, arity).filter(p -> !present[p]).toArray();
    }

    /**
     * Finds each projected field's column in the file by field id (by name only in a file without
     * field ids), adds the found columns to {@code requested} in file order, and returns the output
     * position each of them fills.
     */
    private int[] resolveColumns(MessageType fileSchema, List<Type> requested) {
        boolean fileHasIds = fileSchema.getFields().stream().anyMatch(t -> t.getId() != null);
        Map<Object, Integer> outputByKey = new HashMap<>();
        for (int j = 0; j < projectedType.size(); j++) {
            Field f = projectedType.field(j);
            outputByKey.put(fileHasIds ? (Object) f.id() : f.name(), j);
        }
        List<Integer> positions = new ArrayList<>();
        boolean[] found = new boolean[projectedType.size()];
        for (Type column : fileSchema.getFields()) {
            Object key =
                    fileHasIds
                            ? (column.getId() == null ? null : column.getId().intValue())
                            : column.getName();
            Integer j = key == null ? null : outputByKey.get(key);
            if (j == null) {
                continue;
            }
            Field f = projectedType.field(j);
            ValidationException.check(
                    column.isPrimitive()
                            && ParquetTypes.isReadableAs(column.asPrimitiveType(), f.type()),
                    "Cannot read column %s (field id %d) of base file %s as %s: the file stores %s",
                    f.name(),
                    f.id(),
                    path,
                    f.type(),
                    column);
            requested.add(column);
            positions.add(j);
            found[j] = true;
        }
        for (int j = 0; j < found.length; j++) {
            Field f = projectedType.field(j);
            ValidationException.check(
                    found[j] || f.type().nullable(),
                    "Cannot read column %s (field id %d) from base file %s: the file does not have"
                            + " it and it is NOT NULL",
                    f.name(),
                    f.id(),
                    path);
        }
        return positions.stream().mapToInt(Integer::intValue).toArray();
    }

    public String path() {
        return path;
    }

    /** The type of the rows returned: the projected fields of the table's row type. */
    public RowType rowType() {
        return projectedType;
    }

    /** The number of rows in the file. */
    public long recordCount() {
        return reader.getRecordCount();
    }

    /** Advances to the next row; false at the end of the file. */
    public boolean next() {
        while (rowsLeftInRowGroup == 0) {
            if (!nextRowGroup()) {
                row = null;
                return false;
            }
        }
        rowsLeftInRowGroup--;
        if (columnIO == null) {
            row = materializer.nullRow();
            return true;
        }
        try {
            row = columnar ? decodeRow() : records.read();
        } catch (RuntimeException e) {
            throw failure(e, rowGroupOffset);
        }
        return true;
    }

    private BinaryRow decodeRow() {
        writer.reset();
        for (ColumnDecoder decoder : decoders) {
            decoder.write(writer);
        }
        for (int pos : absentPositions) {
            writer.setNullAt(pos);
        }
        return writer.complete();
    }

    /** The number of row groups so far read by the column decoders (for tests). */
    int columnarRowGroups() {
        return columnarRowGroups;
    }

    /** The current row: a view valid until the next call of {@link #next()} or {@link #close()}. */
    public BinaryRow row() {
        if (row == null) {
            throw new IllegalStateException(
                    "No current row in base file " + path + ": call next() first");
        }
        return row;
    }

    private boolean nextRowGroup() {
        if (rowGroupIndex >= rowGroups.size()) {
            return false;
        }
        int index = rowGroupIndex++;
        BlockMetaData rowGroup = rowGroups.get(index);
        rowGroupOffset = rowGroup.getStartingPos();
        if (columnIO == null || rowGroup.getRowCount() == 0) {
            rowsLeftInRowGroup = rowGroup.getRowCount();
            return true;
        }
        try {
            if (columnar) {
                for (ColumnDecoder decoder : decoders) {
                    decoder.release();
                }
            }
            columnar = columnarReads && decodable(rowGroup);
            codecs.pageArrays().lend(columnar);
            PageReadStore pages = reader.readRowGroup(index);
            if (columnar) {
                for (ColumnDecoder decoder : decoders) {
                    decoder.open(pages.getPageReader(decoder.column()), codecs.pageArrays());
                }
                columnarRowGroups++;
            } else {
                records = columnIO.getRecordReader(pages, materializer);
            }
            rowsLeftInRowGroup = pages.getRowCount();
        } catch (IOException | RuntimeException e) {
            throw failure(e, rowGroupOffset);
        }
        return true;
    }

    /**
     * Whether every requested column has a decoder and its chunk uses only encodings the decoders
     * read.
     */
    private boolean decodable(BlockMetaData rowGroup) {
        for (ColumnDecoder decoder : decoders) {
            if (decoder == null) {
                return false;
            }
        }
        for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
            if (requestedPaths.contains(chunk.getPath())
                    && !ColumnDecoder.ENCODINGS.containsAll(chunk.getEncodings())) {
                return false;
            }
        }
        return true;
    }

    /**
     * An I/O failure of the file system stays an I/O failure; anything else parquet-java throws
     * while decoding means the bytes are not a valid base file.
     */
    private RuntimeException failure(Exception e, long offset) {
        ParquetFiles.SourceIOException source = ParquetFiles.sourceFailure(e);
        if (source != null) {
            return new UncheckedIOException(
                    "Cannot read base file " + path, (IOException) source.getCause());
        }
        CorruptFileException corrupt =
                new CorruptFileException(
                        path, offset, "not a readable Parquet base file: " + e.getMessage());
        corrupt.initCause(e);
        return corrupt;
    }

    @Override
    public void close() {
        row = null;
        try {
            reader.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close base file " + path, e);
        } finally {
            codecs.release();
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            // already failing
        }
    }
}
