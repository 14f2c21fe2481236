package io.weir.write;

import io.weir.DataFile;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.TableWrite;
import io.weir.data.KeyFields;
import io.weir.io.FileIO;
import io.weir.log.LogWriterOptions;
import io.weir.merge.MergeFunction;
import io.weir.merge.MergeFunctions;

import java.util.List;

/**
 * Access to the package-private parts of the write path that the benchmarks measure on their own:
 * {@link LogFlusher} and emptying a {@link TableWriteImpl}'s buffer without a flush. Lives in the
 * benchmark module, in the package of the classes it opens.
 */
public final class WriteInternals {
    private WriteInternals() {}

    /** Drops the rows buffered by a writer of {@code Table.newWrite()} without writing them. */
    public static void discardBuffered(TableWrite write) {
        ((TableWriteImpl) write).discardBuffered();
    }

    /** Writes the rows of a sorted buffer as log files, as a writer's flush does. */
    public static final class Flusher {
        private final LogFlusher flusher;

        public Flusher(
                FileIO io,
                String location,
                Schema schema,
                KeyFields key,
                LogWriterOptions options) {
            this(
                    io,
                    location,
                    schema,
                    key,
                    key == null ? null : MergeFunctions.deduplicate(null, options.arity(), true),
                    options);
        }

        /** A flusher that folds keys with {@code merge} (for rows that stay valid). */
        public Flusher(
                FileIO io,
                String location,
                Schema schema,
                KeyFields key,
                MergeFunction merge,
                LogWriterOptions options) {
            this.flusher = new LogFlusher(io, location, schema, key, merge, options);
        }

        /** Sorts the buffer (if not yet sorted) and writes one log file per file group. */
        public List<DataFile> flush(SortBuffer buffer) {
            return flusher.flush(buffer.sortedCursor(), id -> Partition.UNPARTITIONED);
        }

        /** Releases the codec state. */
        public void close() {
            flusher.close();
        }
    }
}
