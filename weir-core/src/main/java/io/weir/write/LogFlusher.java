package io.weir.write;

import io.weir.DataFile;
import io.weir.DataFilePaths;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.ValueStrings;
import io.weir.io.FileIO;
import io.weir.log.LogFileInfo;
import io.weir.log.LogFileWriter;
import io.weir.log.LogWriteBuffers;
import io.weir.log.LogWriterOptions;
import io.weir.merge.MergeFunction;
import io.weir.partition.TimePartitioner;
import io.weir.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Writes the sorted content of a {@link SortBuffer} as one log file per file group, one file open
 * at a time. For a table with a primary key, the records of one key are folded by the table's
 * {@link MergeFunction}, so a log file holds each key at most once.
 */
final class LogFlusher {
    /** Rows per call of {@link #addRows}. */
    private static final int ROWS_PER_CALL = 1024;

    private final FileIO io;
    private final String location;
    private final Schema schema;
    private final KeyFields key;
    private final MergeFunction merge;
    private final LogWriterOptions options;

    /** Whether equal prefixes mean equal keys: then folding needs no row comparison. */
    private final boolean prefixDetermines;

    /** One block buffer, compression buffer and codec for all files, flush after flush. */
    private final LogWriteBuffers buffers;

    private String writing; // the file being written, for errors

    private TimePartitioner derived;

    LogFlusher(
            FileIO io,
            String location,
            Schema schema,
            KeyFields key,
            MergeFunction merge,
            LogWriterOptions options) {
        this.io = io;
        this.location = location.endsWith("/") ? location : location + "/";
        this.schema = schema;
        this.key = key;
        this.merge = merge;
        this.options = options;
        this.prefixDetermines = key != null && key.prefixDetermines();
        this.buffers = new LogWriteBuffers(options.codec());
    }

    /** Releases the codec state. */
    void close() {
        buffers.close();
    }

    /** Writes everything in the cursor; returns the files written (sequence -1: uncommitted). */
    List<DataFile> flush(SortedCursor cursor, IntFunction<Partition> partitions) {
        return flush(cursor, partitions, null);
    }

    /**
     * Writes everything in the cursor; {@code derived}, if not null, fills each row's time
     * partition columns just before the row is encoded (the rows are the buffer's copies).
     */
    List<DataFile> flush(
            SortedCursor cursor, IntFunction<Partition> partitions, TimePartitioner derived) {
        this.derived = derived;
        List<DataFile> files = new ArrayList<>();
        GroupWriter group = null;
        try {
            boolean more = cursor.next();
            while (more) {
                if (group != null) {
                    files.add(group.finish());
                }
                group = null;
                group = new GroupWriter(cursor.partitionId(), partitions, cursor.bucket());
                do {
                    more = addRows(group, cursor);
                } while (more
                        && cursor.partitionId() == group.partitionId
                        && cursor.bucket() == group.bucket);
            }
            if (group != null) {
                files.add(group.finish());
                group = null;
            }
            return files;
        } catch (IOException | UncheckedIOException e) {
            String table = location.substring(0, location.length() - 1);
            throw WriteErrors.cannotWrite(
                    "file", DataFilePaths.resolve(location, writing), table, e);
        } finally {
            if (group != null) {
                group.abort();
            }
        }
    }

    /**
     * Adds the cursor's current row and the rows after it, up to {@value #ROWS_PER_CALL} and while
     * they belong to {@code group}'s file group; returns whether the cursor stands on a row not yet
     * added. The loop lives here, in calls of a bounded length, so that C2 compiles it once as a
     * method: a loop over a whole flush was compiled on the stack (OSR) at each of its first
     * flushes, and then again as a method.
     */
    private static boolean addRows(GroupWriter group, SortedCursor cursor) throws IOException {
        for (int n = 0; n < ROWS_PER_CALL; n++) {
            group.add(cursor);
            if (!cursor.next()) {
                return false;
            }
            if (cursor.partitionId() != group.partitionId || cursor.bucket() != group.bucket) {
                return true;
            }
        }
        return true;
    }

    /** Deletes written files (best effort) after a failed flush or an abandoned write. */
    void delete(List<DataFile> files) {
        for (DataFile f : files) {
            try {
                io.delete(DataFilePaths.resolve(location, f.path()));
            } catch (IOException e) {
                // Orphans are harmless: no commit references them; the cleaner removes them.
            }
        }
    }

    private final class GroupWriter {
        final int partitionId;
        final int bucket;
        final Partition partition;
        final String relativePath;
        final LogFileWriter writer;
        boolean hasPending;
        long pendingPrefix;
        List<String> minKey;

        GroupWriter(int partitionId, IntFunction<Partition> partitions, int bucket)
                throws IOException {
            this.partitionId = partitionId;
            this.bucket = bucket;
            this.partition = partitions.apply(partitionId);
            this.relativePath =
                    DataFilePaths.newLogFile(
                            DataFilePaths.groupDirectory(schema, partition, bucket));
            writing = relativePath;
            this.writer =
                    new LogFileWriter(
                            io.newOutputFile(DataFilePaths.resolve(location, relativePath)),
                            options,
                            buffers);
        }

        void add(SortedCursor cursor) throws IOException {
            if (key == null) {
                if (derived != null) {
                    derived.fill(partitionId, cursor.bytes(), cursor.offset());
                }
                writer.write(cursor.bytes(), cursor.offset(), cursor.length());
                return;
            }
            // Rows come sorted by key: a duplicate follows its key's previous row. Different
            // prefixes mean different keys, so most rows need no comparison of the rows.
            long prefix = cursor.prefix();
            BinaryRow row = cursor.row();
            if (hasPending
                    && prefix == pendingPrefix
                    && (prefixDetermines || key.compare(merge.result(), row) == 0)) {
                merge.add(row);
                return;
            }
            writePending();
            // The rows stay valid: pages are not reused until the buffer is cleared.
            merge.reset();
            merge.add(row);
            pendingPrefix = prefix;
            hasPending = true;
        }

        private void writePending() throws IOException {
            if (!hasPending) {
                return;
            }
            BinaryRow pending = merge.result();
            if (derived != null) {
                derived.fill(partitionId, pending.bytes(), pending.offset());
            }
            writer.write(pending.bytes(), pending.offset(), pending.sizeInBytes());
            if (minKey == null) {
                minKey = keyTexts(pending);
            }
        }

        DataFile finish() throws IOException {
            writePending();
            LogFileInfo info = writer.close();
            List<String> minKey = key == null ? List.of() : this.minKey;
            List<String> maxKey = key == null ? List.of() : keyTexts(merge.result());
            return new DataFile(
                    relativePath,
                    FileKind.LOG,
                    partition,
                    bucket,
                    info.recordCount(),
                    info.fileSizeInBytes(),
                    -1,
                    options.schemaId(),
                    minKey,
                    maxKey,
                    null);
        }

        void abort() {
            writer.abort();
            try {
                io.delete(DataFilePaths.resolve(location, relativePath));
            } catch (IOException e) {
                // An orphan; see delete().
            }
        }
    }

    private List<String> keyTexts(BinaryRow row) {
        RowType type = schema.rowType();
        List<String> texts = new ArrayList<>();
        for (int pos : schema.primaryKeyPositions()) {
            texts.add(ValueStrings.toText(row.get(pos, type.type(pos)), type.type(pos)));
        }
        return texts;
    }
}
