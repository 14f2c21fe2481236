package io.weir.service;

import io.weir.DataFile;
import io.weir.DataFilePaths;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.ScanTask;
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
import io.weir.read.FileGroupReader;
import io.weir.types.RowType;
import io.weir.util.RowBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Merges the newest sorted runs of a keyed file group into one log file, for incremental compaction
 * ({@link RunPicker}). The runs are folded with the table's merge function as a reader folds them,
 * but a key whose result is a retraction keeps it (with its row kind and values), so that it still
 * hides the key's records in the older runs the merge left alone. The file keeps the greatest
 * sequence it merged: it takes the place of its inputs in the group's read order (docs/format.md
 * §6.5, §6.6), before every file committed after them.
 */
final class LogRunWriter {
    /** Rows written per call of {@link #copyRows}: the JIT compiles the loop as a method. */
    private static final int ROWS_PER_CALL = 1024;

    private LogRunWriter() {}

    static DataFile write(Table table, TableMetadata metadata, ScanTask task, long sequence) {
        Schema schema = metadata.schema();
        TableOptions options = metadata.options();
        FileGroupId group = task.fileGroup();
        String relative =
                DataFilePaths.newLogFile(
                        DataFilePaths.groupDirectory(schema, group.partition(), group.bucket()));
        LogWriterOptions logOptions =
                LogWriterOptions.of(
                                metadata.schemaId(), schema.rowType().size(), options.logCodec())
                        .withBlockSize(options.logBlockSize());
        LogFileWriter writer = null;
        try (RowReader rows = FileGroupReader.open(table, metadata, task.files(), true)) {
            writer =
                    new LogFileWriter(
                            table.io()
                                    .newOutputFile(
                                            DataFilePaths.resolve(table.location(), relative)),
                            logOptions);
            List<String> minKey = List.of();
            RowBuffer last = new RowBuffer(schema.rowType().size());
            if (rows.next()) {
                minKey = keyTexts(schema, rows.row());
                while (copyRows(rows, writer, last)) {
                    // next batch
                }
            }
            LogFileInfo info = writer.close();
            writer = null;
            List<String> maxKey =
                    info.recordCount() == 0 ? List.of() : keyTexts(schema, last.row());
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
                    maxKey,
                    null);
        } catch (IOException e) {
            abort(table, writer, relative);
            throw new UncheckedIOException(
                    "Cannot write log file "
                            + DataFilePaths.resolve(table.location(), relative)
                            + " of table "
                            + table.location(),
                    e);
        } catch (RuntimeException e) {
            abort(table, writer, relative);
            throw e;
        }
    }

    /**
     * Writes the current row and up to {@link #ROWS_PER_CALL} - 1 after it; returns whether the
     * reader stands on a row not yet written. {@code last} holds the last row written once the
     * reader ends (a reader's row is not valid after its end).
     */
    private static boolean copyRows(RowReader rows, LogFileWriter writer, RowBuffer last)
            throws IOException {
        for (int n = 0; n < ROWS_PER_CALL; n++) {
            BinaryRow row = rows.row();
            writer.write(row);
            last.set(row);
            if (!rows.next()) {
                return false;
            }
        }
        return true;
    }

    private static List<String> keyTexts(Schema schema, BinaryRow row) {
        RowType type = schema.rowType();
        List<String> texts = new ArrayList<>();
        for (int pos : schema.primaryKeyPositions()) {
            texts.add(ValueStrings.toText(row.get(pos, type.type(pos)), type.type(pos)));
        }
        return texts;
    }

    private static void abort(Table table, LogFileWriter writer, String relative) {
        if (writer != null) {
            writer.abort();
        }
        try {
            table.io().delete(DataFilePaths.resolve(table.location(), relative));
        } catch (IOException | RuntimeException e) {
            // an orphan that no commit references; orphan removal deletes it
        }
    }
}
