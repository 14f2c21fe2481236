package io.weir.service;

import io.weir.DataFile;
import io.weir.DataFilePaths;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.data.BinaryRow;
import io.weir.data.RowReader;
import io.weir.data.ValueStrings;
import io.weir.log.LogFileInfo;
import io.weir.log.LogFileWriter;
import io.weir.log.LogWriterOptions;
import io.weir.options.TableOptions;
import io.weir.types.RowType;
import io.weir.util.RowBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The log file of an incremental compaction ({@link RunPicker}). It holds the keys whose records in
 * the merged newest runs fold into a -U or -D, kept with their row kind and values (a {@code
 * sequence.field} value included), so that they still hide the key's rows in the older runs the
 * merge left alone; with {@code compaction.run-format} 'log' ({@link #takesAll()}) it holds every
 * merged record. Written in key order, with the greatest sequence merged, as the base files with
 * the other keys of the same merge (docs/format.md §6.3): they hold disjoint keys, so their order
 * among themselves does not matter. The file is created at the first record; with Parquet runs most
 * merges have none (every merge engine but {@code deduplicate} folds into inserts).
 */
final class RunLog {
    /** Rows written per call of {@link #addRows}: the JIT compiles the loop as a method. */
    private static final int ROWS_PER_CALL = 1024;

    private final Table table;
    private final TableMetadata metadata;
    private final FileGroupId group;
    private final long sequence;
    private final boolean takesAll;
    private final RowBuffer last;
    private String relative;
    private LogFileWriter writer;
    private List<String> minKey;
    private long count;

    RunLog(
            Table table,
            TableMetadata metadata,
            FileGroupId group,
            long sequence,
            boolean takesAll) {
        this.table = table;
        this.metadata = metadata;
        this.group = group;
        this.sequence = sequence;
        this.takesAll = takesAll;
        this.last = new RowBuffer(metadata.schema().rowType().size());
    }

    /** Whether every merged record goes to this log, not only retractions. */
    boolean takesAll() {
        return takesAll;
    }

    /**
     * Adds the reader's current row and up to {@link #ROWS_PER_CALL} - 1 after it; returns whether
     * the reader stands on a row not yet added.
     */
    boolean addRows(RowReader rows) {
        for (int n = 0; n < ROWS_PER_CALL; n++) {
            add(rows.row());
            if (!rows.next()) {
                return false;
            }
        }
        return true;
    }

    /** Appends a merged record; keys come in ascending order. */
    void add(BinaryRow row) {
        try {
            if (writer == null) {
                open();
                minKey = keyTexts(row);
            }
            writer.write(row);
        } catch (IOException e) {
            throw failure(e);
        }
        last.set(row);
        count++;
    }

    long count() {
        return count;
    }

    /** Closes the file (after at least one {@link #add}) and returns it, not yet committed. */
    DataFile close() {
        LogFileInfo info;
        try {
            info = writer.close();
        } catch (IOException e) {
            abort();
            throw failure(e);
        }
        return new DataFile(
                relative,
                FileKind.LOG,
                group.partition(),
                group.bucket(),
                info.recordCount(),
                info.fileSizeInBytes(),
                sequence,
                metadata.schemaId(),
                minKey,
                keyTexts(last.row()),
                null);
    }

    /** Drops the file after a failed compaction. */
    void abort() {
        if (writer == null) {
            return;
        }
        writer.abort();
        try {
            table.io().delete(DataFilePaths.resolve(table.location(), relative));
        } catch (IOException | RuntimeException e) {
            // an orphan that no commit references; orphan removal deletes it
        }
    }

    private void open() throws IOException {
        Schema schema = metadata.schema();
        TableOptions options = metadata.options();
        relative =
                DataFilePaths.newLogFile(
                        DataFilePaths.groupDirectory(schema, group.partition(), group.bucket()));
        writer =
                new LogFileWriter(
                        table.io().newOutputFile(DataFilePaths.resolve(table.location(), relative)),
                        LogWriterOptions.of(
                                        metadata.schemaId(),
                                        schema.rowType().size(),
                                        options.logCodec())
                                .withBlockSize(options.logBlockSize()));
    }

    private UncheckedIOException failure(IOException e) {
        return new UncheckedIOException(
                "Cannot write log file "
                        + DataFilePaths.resolve(table.location(), relative)
                        + " of table "
                        + table.location(),
                e);
    }

    private List<String> keyTexts(BinaryRow row) {
        Schema schema = metadata.schema();
        RowType type = schema.rowType();
        List<String> texts = new ArrayList<>();
        for (int pos : schema.primaryKeyPositions()) {
            texts.add(ValueStrings.toText(row.get(pos, type.type(pos)), type.type(pos)));
        }
        return texts;
    }
}
