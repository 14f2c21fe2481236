package io.weir.write;

import io.weir.BulkWrite;
import io.weir.DataFile;
import io.weir.TableMetadata;
import io.weir.WriteStats;
import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.io.FileIO;
import io.weir.memory.MemoryPool;
import io.weir.merge.MergeFunctions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link BulkWrite}: an external sort. Rows go into one {@link SortBuffer}; when its memory is
 * full, the buffer is sorted and written (keys folded to their winners) as a run to a local spill
 * file ({@link SpillFiles}), and emptied. {@link #prepareCommit()} merges the runs and the buffer
 * ({@link MergedRows}; first runs in groups of {@code maxFanIn} while there are more), folds keys
 * once more ({@link FoldingRows}, the table's merge function) and writes the result as sorted base
 * files ({@link BaseFileFlusher}). Without a spill nothing touches the local disk: the buffer is
 * written directly.
 *
 * <p>Per row: the same checks and routing as the upsert writer ({@link RowRouter}) and one copy
 * into the buffer; nothing is allocated per row.
 */
public final class BulkWriteImpl implements BulkWrite {
    private final String location;
    private final RowRouter router;
    private final KeyFields key;
    private final TableMetadata metadata;
    private final MemoryPool pool;
    private final SortBuffer buffer;
    private final SpillFiles spills;
    private final BaseFileFlusher flusher;
    private final int maxFanIn;

    /** Spilled runs, oldest first. */
    private final List<SpillRun> runs = new ArrayList<>();

    private final List<DataFile> written = new ArrayList<>();

    private long records;
    private long bytes;
    private long filesWritten;
    private long bytesWritten;
    private long spillCount;
    private long spillNanos;
    private long writeNanos;
    private boolean finished;
    private boolean failed;
    private boolean closed;

    /**
     * @param spillDirectory the local directory under which this writer creates its spill files
     * @param maxFanIn the most runs one merge reads at a time (at least 2)
     */
    public BulkWriteImpl(
            FileIO io,
            String location,
            TableMetadata metadata,
            int appendBucket,
            long writeBufferSize,
            Path spillDirectory,
            int maxFanIn) {
        if (maxFanIn < 2) {
            throw new IllegalArgumentException("Invalid merge fan-in " + maxFanIn + ": at least 2");
        }
        this.location = location;
        this.router = new RowRouter(location, metadata, AppendBuckets.fixed(appendBucket));
        this.key = router.key();
        this.metadata = metadata;
        this.pool = MemoryPool.forRows(writeBufferSize, metadata.options().pageSize());
        this.buffer = new SortBuffer(pool, router.arity(), key);
        this.spills =
                new SpillFiles(spillDirectory, location, metadata.schemaId(), router.arity(), key);
        this.flusher = new BaseFileFlusher(io, location, metadata, key);
        this.maxFanIn = maxFanIn;
    }

    @Override
    public void write(BinaryRow row) {
        checkWritable();
        int bucket = router.bucket(row);
        if (bucket == RowRouter.DROPPED) {
            return;
        }
        row = router.prepareFilled(row);
        int partition = router.partition(row);
        if (!buffer.append(partition, bucket, row)) {
            spill();
            if (!buffer.append(partition, bucket, row)) {
                throw new IllegalStateException("An empty write buffer refused a row");
            }
        }
        records++;
        bytes += row.sizeInBytes();
    }

    /** Writes the buffer as a sorted run and empties it. */
    private void spill() {
        long start = System.nanoTime();
        runs.add(spills.write(winners(buffer.sortedCursor(), true)));
        buffer.clear();
        spillCount++;
        spillNanos += System.nanoTime() - start;
    }

    /**
     * For a keyed table, one row per key; an append-only table keeps every row.
     *
     * @param records whether the rows are records as written (the buffer), not folded rows (runs)
     */
    private SortedRows winners(SortedRows rows, boolean records) {
        return key == null
                ? rows
                : new FoldingRows(
                        rows, key, MergeFunctions.create(metadata, rows.rowsStayValid(), records));
    }

    @Override
    public List<DataFile> prepareCommit() {
        checkOpen();
        if (!finished) {
            finished = true;
            try {
                writeAll();
            } catch (RuntimeException e) {
                failed = true;
                throw e;
            }
        }
        List<DataFile> files = List.copyOf(written);
        written.clear();
        return files;
    }

    /** Merges the runs and the buffer and writes the base files. */
    private void writeAll() {
        long start = System.nanoTime();
        List<SortedRows> sources = new ArrayList<>(runs.size() + 1);
        try {
            mergeRunsAboveFanIn();
            for (SpillRun run : runs) {
                sources.add(spills.open(run));
            }
            // The buffer's records are folded first, so that the merge with the runs folds
            // folded rows only.
            sources.add(winners(buffer.sortedCursor(), true));
            SortedRows all = sources.size() == 1 ? sources.get(0) : winners(merge(sources), false);
            List<DataFile> files = flusher.write(all, router.partitionsById());
            written.addAll(files);
            filesWritten += files.size();
            for (DataFile f : files) {
                bytesWritten += f.sizeInBytes();
            }
        } finally {
            sources.forEach(SortedRows::close);
            buffer.clear();
            runs.clear();
            spills.close();
            writeNanos += System.nanoTime() - start;
        }
    }

    /** Merges the oldest runs into one until the runs and the buffer fit one merge. */
    private void mergeRunsAboveFanIn() {
        while (runs.size() + 1 > maxFanIn) {
            List<SpillRun> oldest = new ArrayList<>(runs.subList(0, maxFanIn));
            List<SortedRows> sources = new ArrayList<>(oldest.size());
            SpillRun merged;
            try {
                for (SpillRun run : oldest) {
                    sources.add(spills.open(run));
                }
                merged = spills.write(winners(merge(sources), false));
            } finally {
                sources.forEach(SortedRows::close);
            }
            oldest.forEach(spills::delete);
            runs.subList(0, maxFanIn).clear();
            // Older than every run left: it stays first, so that later rows still win.
            runs.add(0, merged);
        }
    }

    private SortedRows merge(List<SortedRows> sources) {
        return new MergedRows(sources, key);
    }

    @Override
    public WriteStats stats() {
        return new WriteStats(
                records,
                bytes,
                spillCount,
                filesWritten,
                bytesWritten,
                spillNanos + writeNanos,
                buffer.memoryUsed(),
                (long) pool.maxPages() * pool.pageSize());
    }

    /** Bytes written to spill files so far (they are deleted once merged). */
    public long spilledBytes() {
        return spills.bytesWritten();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        buffer.clear();
        runs.clear();
        try {
            spills.close();
        } finally {
            flusher.close();
            flusher.delete(written);
            written.clear();
        }
    }

    private void checkWritable() {
        checkOpen();
        if (finished) {
            throw new IllegalStateException(
                    "Cannot write to the bulk writer of table "
                            + location
                            + ": prepareCommit() finished it (a bulk write sorts all its rows once)");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("Writer of table " + location + " is closed");
        }
        if (failed) {
            throw new IllegalStateException(
                    "The bulk writer of table " + location + " failed; close it");
        }
    }
}
