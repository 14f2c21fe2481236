package io.weir.write;

import io.weir.DataFile;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.TableWrite;
import io.weir.TimePartitioning;
import io.weir.WriteStats;
import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.RowKind;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.log.LogWriterOptions;
import io.weir.memory.MemoryPool;
import io.weir.options.TableOptions;
import io.weir.read.FileGroupReader;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

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
    private static final byte UPDATE_BEFORE = RowKind.UPDATE_BEFORE.toByteValue();
    private static final byte DELETE = RowKind.DELETE.toByteValue();

    private final String location;
    private final Schema schema;
    private final KeyFields key;
    private final int[] keyPositions;
    private final int arity;
    private final int buckets;
    private final int appendBucket;
    private final AppendBuckets appendBuckets;
    private int[] bucketsByPartition = new int[0];
    private final PartitionResolver partitions;
    private final boolean partitioned;
    private final TimePartitioner time;
    private final boolean timeOnly;
    private final IntFunction<Partition> partitionsById;
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
        this.schema = metadata.schema();
        TableOptions options = metadata.options();
        this.buckets = options.bucket();
        this.appendBuckets = appendBuckets;
        this.appendBucket = appendBuckets.isFixed() ? appendBuckets.first() : -1;
        this.keyPositions = schema.primaryKeyPositions();
        this.key = schema.hasPrimaryKey() ? KeyFields.of(schema.rowType(), keyPositions) : null;
        KeyFields sequence = FileGroupReader.sequenceField(metadata);
        this.partitions = new PartitionResolver(schema);
        this.partitioned = schema.isPartitioned();
        TimePartitioning timePartitioning = TimePartitioning.of(metadata);
        this.arity = schema.rowType().size();
        this.time = timePartitioning == null ? null : new TimePartitioner(timePartitioning, arity);
        this.timeOnly = time != null && timePartitioning.derivesAllPartitionKeys();
        this.partitionsById = timeOnly ? time::partition : partitions::partition;
        this.pool = new MemoryPool(writeBufferSize, options.pageSize());
        this.buffer = new SortBuffer(pool, arity, key);
        LogWriterOptions logOptions =
                LogWriterOptions.of(metadata.schemaId(), arity, options.logCodec())
                        .withBlockSize(options.logBlockSize());
        this.flusher = new LogFlusher(io, location, schema, key, sequence, logOptions);
    }

    @Override
    public void write(BinaryRow row) {
        checkOpen();
        if (row.arity() != arity) {
            throw wrongArity(row);
        }
        // The kind byte, compared as a byte: no enum lookup per row.
        byte kind = row.bytes()[row.offset()];
        if ((kind & ~3) != 0) {
            RowKind.fromByteValue(kind); // throws, naming the invalid byte
        }
        int bucket;
        if (key != null) {
            if (kind == UPDATE_BEFORE) {
                return; // the deduplicate engine needs only the new row
            }
            bucket = key.bucketOfNonNullKey(row, buckets);
            if (bucket < 0) {
                throw nullKey(-1 - bucket);
            }
        } else {
            if (kind == UPDATE_BEFORE || kind == DELETE) {
                throw notAppendable(RowKind.fromByteValue(kind));
            }
            bucket = appendBucket;
        }
        int partition;
        if (time == null) {
            partition = partitioned ? partitions.resolve(row) : 0;
        } else if (timeOnly) {
            partition = time.resolve(row); // a cached window: two comparisons
        } else {
            row = time.patch(row); // identity keys too: resolve them on the filled row
            partition = partitions.resolve(row);
        }
        if (bucket < 0) {
            bucket = appendBucket(partition);
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

    /** The bucket of an append-only partition, chosen once among several candidates. */
    private int appendBucket(int partition) {
        if (partition >= bucketsByPartition.length) {
            int from = bucketsByPartition.length;
            bucketsByPartition = Arrays.copyOf(bucketsByPartition, Math.max(16, 2 * partition));
            Arrays.fill(bucketsByPartition, from, bucketsByPartition.length, -1);
        }
        int bucket = bucketsByPartition[partition];
        if (bucket < 0) {
            bucket = appendBuckets.choose(partitionsById.apply(partition));
            bucketsByPartition[partition] = bucket;
        }
        return bucket;
    }

    private ValidationException wrongArity(BinaryRow row) {
        return new ValidationException(
                "Cannot write a row of "
                        + row.arity()
                        + " fields to table "
                        + location
                        + " with "
                        + schema.rowType().size()
                        + " columns");
    }

    private ValidationException notAppendable(RowKind kind) {
        return new ValidationException(
                "Cannot write a "
                        + kind.shortString()
                        + " row to table "
                        + location
                        + ": it has no primary key, so rows can only be appended");
    }

    private ValidationException nullKey(int keyField) {
        String column = schema.rowType().field(keyPositions[keyField]).name();
        return new ValidationException(
                "Cannot write a row with a null primary key to table "
                        + location
                        + ": column '"
                        + column
                        + "' is null");
    }

    /** Writes the buffered rows as log files and empties the buffer. */
    void flush() {
        if (buffer.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        List<DataFile> files =
                flusher.flush(buffer.sortedCursor(), partitionsById, timeOnly ? time : null);
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
