package io.weir.read;

import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.data.RowReader;
import io.weir.data.ValueStrings;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.merge.MergeFunctions;
import io.weir.types.RowType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Reads the files of one file group as full table rows: merged by primary key with the table's
 * merge function (base files and logs, oldest first: {@link #READ_ORDER}) for tables with a key,
 * concatenated in sequence order for append-only tables.
 */
public final class FileGroupReader {
    /**
     * Oldest first: by ascending sequence; at equal sequence base files before logs (a compacted
     * base keeps the greatest sequence it merged), then by path. A bulk-written base file is newer
     * than the group's files before it, and is read after them.
     */
    public static final Comparator<DataFile> READ_ORDER =
            Comparator.comparingLong(DataFile::sequence)
                    .thenComparing((DataFile f) -> f.kind() != FileKind.BASE)
                    .thenComparing(DataFile::path);

    private FileGroupReader() {}

    /**
     * @param keepDeletes for keyed tables: return a key's winning delete (with kind -D) instead of
     *     dropping the key
     */
    public static RowReader open(
            FileIO io,
            String location,
            TableMetadata metadata,
            List<DataFile> files,
            boolean keepDeletes) {
        Schema schema = metadata.schema();
        RowType rowType = schema.rowType();
        List<DataFile> ordered = new ArrayList<>(files);
        ordered.sort(READ_ORDER);
        ordered.forEach(f -> checkSchema(f, metadata, location));
        List<RowReader> sources = new ArrayList<>(ordered.size());
        try {
            for (DataFile f : ordered) {
                sources.add(DataFileReaders.open(io, location, f, rowType));
            }
        } catch (RuntimeException e) {
            sources.forEach(RowReader::close);
            throw e;
        }
        if (!schema.hasPrimaryKey()) {
            return new ConcatReader(sources);
        }
        KeyFields key = KeyFields.of(rowType, schema.primaryKeyPositions());
        return new SortedMergeReader(
                sources, key, MergeFunctions.create(metadata, false, false), keepDeletes);
    }

    /**
     * Reads a file group's rows projected onto {@code projection} without merging, when the group
     * is base files of one sequence (the output of one compaction or bulk write): such files hold
     * the group's live rows (unique keys, no deletes, disjoint key ranges), so only the projected
     * columns need reading, file after file (in key order for keyed tables). Returns null for any
     * other group, which needs {@link #open}.
     */
    public static RowReader openBaseOnly(
            FileIO io,
            String location,
            TableMetadata metadata,
            List<DataFile> files,
            int[] projection) {
        if (!isBaseOnly(files)) {
            return null;
        }
        files.forEach(f -> checkSchema(f, metadata, location));
        Schema schema = metadata.schema();
        List<DataFile> ordered = new ArrayList<>(files);
        Comparator<DataFile> byKey = schema.hasPrimaryKey() ? byMinKey(schema, files) : null;
        ordered.sort(byKey != null ? byKey : READ_ORDER);
        List<RowReader> readers = new ArrayList<>(ordered.size());
        try {
            for (DataFile f : ordered) {
                readers.add(
                        DataFileReaders.openBase(io, location, f, schema.rowType(), projection));
            }
        } catch (RuntimeException e) {
            readers.forEach(RowReader::close);
            throw e;
        }
        return readers.size() == 1 ? readers.get(0) : new ConcatReader(readers);
    }

    /** Whether the group is base files of one sequence: see {@link #openBaseOnly}. */
    public static boolean isBaseOnly(List<DataFile> files) {
        if (files.isEmpty()) {
            return false;
        }
        long sequence = files.get(0).sequence();
        for (DataFile f : files) {
            if (f.kind() != FileKind.BASE || f.sequence() != sequence) {
                return false;
            }
        }
        return true;
    }

    /** Orders base files of disjoint key ranges by their smallest keys; null if one has none. */
    private static Comparator<DataFile> byMinKey(Schema schema, List<DataFile> files) {
        int[] positions = schema.primaryKeyPositions();
        RowType keyType = schema.rowType().project(positions);
        KeyFields key = KeyFields.of(keyType, IntStream.range(0, positions.length).toArray());
        Map<DataFile, BinaryRow> minKeys = new IdentityHashMap<>();
        for (DataFile f : files) {
            if (f.minKey().size() != positions.length) {
                return null;
            }
            Object[] values = new Object[positions.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = ValueStrings.fromText(f.minKey().get(i), keyType.field(i).type());
            }
            minKeys.put(f, BinaryRowWriter.toRow(keyType, values));
        }
        return (a, b) -> key.compare(minKeys.get(a), minKeys.get(b));
    }

    private static void checkSchema(DataFile f, TableMetadata metadata, String location) {
        // Schema versions so far differ in options only (a rescale's bucket count): a file of an
        // older version has the columns of the newer. A newer file needs the newer schema.
        ValidationException.check(
                f.schemaId() <= metadata.schemaId(),
                "Cannot read file %s of table %s: it was written with schema %s, newer than the"
                        + " schema %s it is read with; refresh the table",
                f.path(),
                location,
                f.schemaId(),
                metadata.schemaId());
    }
}
