package io.weir.write;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.TableWrite;
import io.weir.WriteStats;
import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.io.FileIO;
import io.weir.log.LogWriterOptions;
import io.weir.memory.MemoryPool;
import io.weir.merge.MergeFunction;
import io.weir.merge.MergeFunctions;
import io.weir.options.TableOptions;
import io.weir.partition.TimePartitioner;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@link TableWrite} of every table: rows go into one shared {@link SortBuffer} tagged with
 * their partition and bucket; a flush sorts it and writes one log file per file group.
 *
 * <p>Per row the work is: read the kind byte, check the key for nulls (one mask over the null bits)
 * and hash it for the bucket, resolve the partition (nothing for an unpartitioned table; one
 * comparison when it is the previous row's; for time partitions one comparison with the cached
 * window, {@link TimePartitioner}), copy the bytes. The derived time-partition columns are written
 * into the buffer's copies by the flush, partition by partition. Nothing is allocated per row.
 */
public final class TableWriteImpl implements TableWrite {
    private final String location;
    private final RowRouter router;
    private final MemoryPool pool;
    private final SortBuffer buffer;
    private final LogFlusher flusher;
    private final List<DataFile> written = new ArrayList<>();

    private long records;
    private long bytes;
    private long flushes;
    private long filesWritten;
    private long bytesWritten;
    private long flushNanos;
    private boolean closed;

    public TableWriteImpl(
            FileIO io,
            String location,
            TableMetadata metadata,
            AppendBuckets appendBuckets,
            long writeBufferSize) {
        this.location = location;
        Schema schema = metadata.schema();
        TableOptions options = metadata.options();
        this.router = new RowRouter(location, metadata, appendBuckets);
        KeyFields key = router.key();
        MergeFunction merge = key == null ? null : MergeFunctions.create(metadata, true, true);
        this.pool = MemoryPool.forRows(writeBufferSize, options.pageSize());
        int arity = router.arity();
        this.buffer = new SortBuffer(pool, arity, key);
        LogWriterOptions logOptions =
                LogWriterOptions.of(metadata.schemaId(), arity, options.logCodec())
                        .withBlockSize(options.logBlockSize());
        this.flusher = new LogFlusher(io, location, schema, key, merge, logOptions);
    }

    @Override
    public void write(BinaryRow row) {
        checkOpen();
        int bucket = router.bucket(row);
        if (bucket == RowRouter.DROPPED) {
            return;
        }
        row = router.prepare(row);
        int partition = router.partition(row);
        if (bucket == RowRouter.BY_PARTITION) {
            bucket = router.appendBucket(partition);
        }
        if (!buffer.append(partition, bucket, row)) {
            flush();
            if (!buffer.append(partition, bucket, row)) {
                throw new IllegalStateException("An empty write buffer refused a row");
            }
        }
        records++;
        bytes += row.sizeInBytes();
    }

    /** Writes the buffered rows as log files and empties the buffer. */
    void flush() {
        if (buffer.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        List<DataFile> files =
                flusher.flush(
                        buffer.sortedCursor(), router.partitionsById(), router.derivedColumns());
        buffer.clear();
        written.addAll(files);
        flushes++;
        filesWritten += files.size();
        for (DataFile f : files) {
            bytesWritten += f.sizeInBytes();
        }
        flushNanos += System.nanoTime() - start;
    }

    /**
     * Drops the buffered rows without writing them: for benchmarks of the append path alone
     * (weir-bench), which must empty the buffer without a flush.
     */
    void discardBuffered() {
        buffer.clear();
    }

    @Override
    public List<DataFile> prepareCommit() {
        checkOpen();
        flush();
        List<DataFile> files = List.copyOf(written);
        written.clear();
        return files;
    }

    @Override
    public WriteStats stats() {
        return new WriteStats(
                records,
                bytes,
                flushes,
                filesWritten,
                bytesWritten,
                flushNanos,
                buffer.memoryUsed(),
                (long) pool.maxPages() * pool.pageSize());
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        buffer.clear();
        flusher.close();
        flusher.delete(written);
        written.clear();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("Writer of table " + location + " is closed");
        }
    }
}
