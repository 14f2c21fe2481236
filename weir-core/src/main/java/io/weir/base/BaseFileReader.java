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
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * <p>Given the row type of the schema the file was written with, the reader verifies the footer
 * against it once, when the file is opened: every column present, in order, with its name, field
 * id, repetition and Parquet type, and every row group with a full chunk of each. A footer damaged
 * there (a flipped byte in a column's name, id or type) is a {@link CorruptFileException} naming
 * the column, the expected and the stored type, never a column read as nulls. Reading rows costs
 * nothing more.
 *
 * <p>A row group whose requested columns use only plain, dictionary and, for integers,
 * DELTA_BINARY_PACKED encodings (every row group Weir writes) is decoded column by column ({@link
 * ColumnDecoder}); any other (other writers' DELTA_BYTE_ARRAY strings, say) through parquet-java's
 * record reader. Both give the same rows.
 *
 * <p>Failures name the file: {@link UncheckedIOException} when the file is missing or the file
 * system fails, {@link CorruptFileException} when the bytes are not a readable base file (or not
 * the file its schema says), {@link ValidationException} when a requested column cannot be read as
 * its table type. Not thread-safe.
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
    private PageReadStore pages; // the current row group's: its chunks until closed
    private boolean columnar; // the current row group is read by the decoders
    private int columnarRowGroups;
    private int rowGroupIndex;
    private long rowGroupOffset;
    private long rowsLeftInRowGroup;
    private BinaryRow row;

    /** Reads every column of a file written with {@code rowType} (see below). */
    public BaseFileReader(InputFile file, RowType rowType) {
        this(file, rowType, IntStream.range(0, rowType.size()).toArray());
    }

    /**
     * Reads the fields of {@code rowType} at {@code projection}, in that order, from a file written
     * with {@code rowType}: the row type of the schema the file was written with (its data file
     * entry's {@code schema-id}). The footer must describe exactly the columns a {@link
     * BaseFileWriter} writes for that row type, else the file is corrupt.
     *
     * @param projection distinct positions in {@code rowType}
     */
    public BaseFileReader(InputFile file, RowType rowType, int[] projection) {
        this(file, rowType, rowType, projection, true);
    }

    /**
     * Reads the fields of {@code rowType} at {@code projection}, in that order.
     *
     * @param fileRowType the row type of the schema the file was written with, against which the
     *     footer is verified when the file is opened; null if unknown (a file not written by Weir)
     * @param rowType the table's row type (fields are matched to the file by id)
     * @param projection distinct positions in {@code rowType}
     */
    public BaseFileReader(InputFile file, RowType fileRowType, RowType rowType, int[] projection) {
        this(file, fileRowType, rowType, projection, true);
    }

    /**
     * Without verifying the footer against a schema; with {@code columnarReads} false, every row
     * group goes through the record reader.
     */
    BaseFileReader(InputFile file, RowType rowType, int[] projection, boolean columnarReads) {
        this(file, null, rowType, projection, columnarReads);
    }

    private BaseFileReader(
            InputFile file,
            RowType fileRowType,
            RowType rowType,
            int[] projection,
            boolean columnarReads) {
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
                        .withAllocator(ChunkAllocator.INSTANCE)
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
            if (fileRowType != null) {
                verifyFooter(fileSchema, fileRowType);
            }
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

    /**
     * Checks, once when the file is opened, that the footer describes the file {@link
     * BaseFileWriter} writes for {@code fileRowType}: its columns in order, each with the name,
     * field id, repetition, physical type, logical type and length of its field (docs/format.md
     * §5.1), and every row group with one chunk per column, in order, of as many values as the row
     * group has rows. A flipped byte in the footer's schema (a column's name, id or type) would
     * otherwise make the column unreadable and read as nulls, or as wrong values.
     */
    private void verifyFooter(MessageType fileSchema, RowType fileRowType) {
        List<Type> found = fileSchema.getFields();
        List<Field> fields = fileRowType.fields();
        for (int c = 0; c < Math.max(found.size(), fields.size()); c++) {
            if (c >= found.size()) {
                Field f = fields.get(c);
                throw corruptFooter(
                        "column %s (field id %d) of the schema the file was written with is"
                                + " missing from the footer, which has %d columns",
                        f.name(), f.id(), found.size());
            }
            Type column = found.get(c);
            if (c >= fields.size()) {
                throw corruptFooter(
                        "the footer has column %d '%s' beyond the %d columns of the schema the"
                                + " file was written with",
                        c, column, fields.size());
            }
            Field f = fields.get(c);
            PrimitiveType expected = ParquetTypes.column(f);
            if (!sameColumn(column, expected)) {
                throw corruptFooter(
                        "column %d should be %s (field id %d, type %s) stored as '%s', the footer"
                                + " has '%s'",
                        c, f.name(), f.id(), f.type(), expected, column);
            }
        }
        for (int g = 0; g < rowGroups.size(); g++) {
            BlockMetaData rowGroup = rowGroups.get(g);
            List<ColumnChunkMetaData> chunks = rowGroup.getColumns();
            if (chunks.size() != fields.size()) {
                throw corruptFooter(
                        "row group %d has %d column chunks, the schema %d columns",
                        g, chunks.size(), fields.size());
            }
            for (int c = 0; c < chunks.size(); c++) {
                ColumnChunkMetaData chunk = chunks.get(c);
                String name = fields.get(c).name();
                if (!chunk.getPath().equals(ColumnPath.get(name))) {
                    throw corruptFooter(
                            "column chunk %d of row group %d is of column '%s', expected '%s'",
                            c, g, chunk.getPath().toDotString(), name);
                }
                if (chunk.getValueCount() != rowGroup.getRowCount()) {
                    throw corruptFooter(
                            "column chunk %s of row group %d has %d values, the row group %d rows",
                            name, g, chunk.getValueCount(), rowGroup.getRowCount());
                }
            }
        }
    }

    /** Name, field id, repetition, physical type, logical type and length all equal. */
    private static boolean sameColumn(Type column, PrimitiveType expected) {
        if (!column.isPrimitive()) {
            return false;
        }
        PrimitiveType p = column.asPrimitiveType();
        return p.getName().equals(expected.getName())
                && Objects.equals(p.getId(), expected.getId())
                && p.getRepetition() == expected.getRepetition()
                && p.getPrimitiveTypeName() == expected.getPrimitiveTypeName()
                && Objects.equals(p.getLogicalTypeAnnotation(), expected.getLogicalTypeAnnotation())
                && p.getTypeLength() == expected.getTypeLength();
    }

    private CorruptFileException corruptFooter(String format, Object... args) {
        return new CorruptFileException(
                path,
                "its footer does not match the schema it was written with: "
                        + String.format(format, args));
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
            releaseRowGroup();
            columnar = columnarReads && decodable(rowGroup);
            codecs.pageArrays().lend(columnar);
            pages = reader.readRowGroup(index);
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

    /**
     * Lets go of the current row group: the decoders give back their page arrays, then its column
     * chunks go back ({@link ChunkAllocator}), since no row of it is current any more.
     */
    private void releaseRowGroup() {
        if (columnar) {
            for (ColumnDecoder decoder : decoders) {
                decoder.release();
            }
            columnar = false;
        }
        records = null;
        if (pages != null) {
            try {
                pages.close();
            } catch (Exception e) {
                throw new IllegalStateException("Cannot release the row group of " + path, e);
            } finally {
                pages = null;
            }
        }
    }

    @Override
    public void close() {
        row = null;
        try {
            releaseRowGroup();
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
