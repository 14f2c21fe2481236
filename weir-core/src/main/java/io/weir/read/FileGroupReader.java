package io.weir.read;

import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.data.KeyFields;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.types.RowType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads the files of one file group as full table rows: merged by primary key (base files and logs,
 * oldest first: {@link #READ_ORDER}) for tables with a key, concatenated in sequence order for
 * append-only tables.
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
                sources, rowType.size(), key, sequenceField(metadata), keepDeletes);
    }

    /**
     * Reads a file group's rows projected onto {@code projection} without merging, when the group
     * is a single base file: a base file holds the group's live rows (unique keys in ascending
     * order, no deletes), so only the projected columns need reading. Returns null for any other
     * group, which needs {@link #open}.
     */
    public static RowReader openBaseOnly(
            FileIO io,
            String location,
            TableMetadata metadata,
            List<DataFile> files,
            int[] projection) {
        if (files.size() != 1 || files.get(0).kind() != FileKind.BASE) {
            return null;
        }
        DataFile base = files.get(0);
        checkSchema(base, metadata, location);
        return DataFileReaders.openBase(
                io, location, base, metadata.schema().rowType(), projection);
    }

    private static void checkSchema(DataFile f, TableMetadata metadata, String location) {
        ValidationException.check(
                f.schemaId() == metadata.schemaId(),
                "Cannot read file %s of table %s: it was written with schema %s, the table has"
                        + " schema %s, and schema evolution is not supported yet",
                f.path(),
                location,
                f.schemaId(),
                metadata.schemaId());
    }

    /** The table's {@code sequence.field} as a one-field key, or null. */
    public static KeyFields sequenceField(TableMetadata metadata) {
        String name = metadata.options().sequenceField();
        if (name == null) {
            return null;
        }
        RowType rowType = metadata.schema().rowType();
        int pos = rowType.indexOf(name);
        ValidationException.check(
                pos >= 0,
                "Invalid option 'sequence.field': column '%s' does not exist (columns: %s)",
                name,
                rowType.names());
        return KeyFields.of(rowType, new int[] {pos});
    }
}
