package io.weir.read;

import io.weir.DataFile;
import io.weir.DataFilePaths;
import io.weir.FileKind;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.data.RowReader;
import io.weir.data.ValueStrings;
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
     * @param table the table, for its files and its schema versions
     * @param readAs the schema and options to read with: files of other schema versions are mapped
     *     onto its columns ({@link SchemaMapping}), and its merge engine merges
     * @param keepDeletes for keyed tables: return a key's winning delete (with kind -D) instead of
     *     dropping the key
     */
    public static RowReader open(
            Table table, TableMetadata readAs, List<DataFile> files, boolean keepDeletes) {
        Schema schema = readAs.schema();
        RowType rowType = schema.rowType();
        List<DataFile> ordered = new ArrayList<>(files);
        ordered.sort(READ_ORDER);
        SchemaMappings mappings = new SchemaMappings(table, readAs);
        List<RowReader> sources = new ArrayList<>(ordered.size());
        try {
            for (DataFile f : ordered) {
                SchemaMapping mapping = mappings.of(f);
                // A base file's footer is verified against the schema it was written with.
                RowType written = mappings.written(f);
                RowReader rows = DataFileReaders.open(table.io(), table.location(), f, written);
                sources.add(mapping == null ? rows : mapping.map(rows));
            }
        } catch (RuntimeException e) {
            sources.forEach(RowReader::close);
            throw e;
        }
        if (!schema.hasPrimaryKey()) {
            return new ConcatReader(sources);
        }
        KeyFields key = KeyFields.of(rowType, schema.primaryKeyPositions());
        List<String> names =
                ordered.stream()
                        .map(f -> DataFilePaths.resolve(table.location(), f.path()))
                        .toList();
        return new SortedMergeReader(
                sources, names, key, MergeFunctions.create(readAs, false, false), keepDeletes);
    }

    /**
     * Reads a file group's rows projected onto {@code projection} without merging, when the group
     * is base files of one sequence (the output of one compaction or bulk write): such files hold
     * the group's live rows (unique keys, no deletes, disjoint key ranges), so only the projected
     * columns need reading, file after file (in key order for keyed tables). Returns null for any
     * other group, which needs {@link #open}.
     */
    public static RowReader openBaseOnly(
            Table table, TableMetadata readAs, List<DataFile> files, int[] projection) {
        if (!isBaseOnly(files)) {
            return null;
        }
        Schema schema = readAs.schema();
        List<DataFile> ordered = new ArrayList<>(files);
        Comparator<DataFile> byKey = schema.hasPrimaryKey() ? byMinKey(schema, files) : null;
        ordered.sort(byKey != null ? byKey : READ_ORDER);
        RowType projected = schema.rowType().project(projection);
        SchemaMappings mappings = new SchemaMappings(table, readAs);
        List<RowReader> readers = new ArrayList<>(ordered.size());
        try {
            for (DataFile f : ordered) {
                SchemaMapping mapping = mappings.of(f);
                RowType written = mappings.written(f);
                if (mapping == null) {
                    readers.add(
                            DataFileReaders.openBase(
                                    table.io(), table.location(), f, written, projection));
                    continue;
                }
                // Only the file's columns that the projection maps to, then mapped by id.
                int[] fileColumns =
                        projected.fields().stream()
                                .mapToInt(field -> indexOfId(written, field.id()))
                                .filter(p -> p >= 0)
                                .distinct()
                                .toArray();
                RowReader rows =
                        DataFileReaders.openBase(
                                table.io(), table.location(), f, written, fileColumns);
                readers.add(
                        SchemaMapping.between(
                                        written.project(fileColumns),
                                        projected,
                                        f.path(),
                                        table.location())
                                .map(rows));
            }
        } catch (RuntimeException e) {
            readers.forEach(RowReader::close);
            throw e;
        }
        return readers.size() == 1 ? readers.get(0) : new ConcatReader(readers);
    }

    private static int indexOfId(RowType type, int id) {
        for (int i = 0; i < type.size(); i++) {
            if (type.field(i).id() == id) {
                return i;
            }
        }
        return -1;
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
}
