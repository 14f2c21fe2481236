package io.weir.write;

import io.weir.Partition;
import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.base.TimestampCounts;
import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.RowKind;
import io.weir.data.Timestamp;
import io.weir.exceptions.ValidationException;
import io.weir.merge.MergeFunctions;
import io.weir.partition.TimePartitioner;
import io.weir.partition.TimePartitioning;
import io.weir.types.DataType;
import io.weir.types.Field;
import io.weir.types.TypeRoot;

import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * Checks an incoming row and finds its file group, for every writer of a table ({@link
 * TableWriteImpl}, {@link BulkWriteImpl}): the kind byte, the arity, a null key; the bucket (key
 * hash modulo the bucket count, or the writer's append bucket); the partition id ({@link
 * PartitionResolver}; for time partitions one comparison with a cached window, {@link
 * TimePartitioner}) and how its derived time-partition columns are filled. Nothing is allocated per
 * row.
 *
 * <p>It also rejects a TIMESTAMP/TIMESTAMP_LTZ of precision 4 to 9 that a base file cannot store
 * ({@link TimestampCounts}: for precision 7 to 9 before 1677-09-21 or after 2262-04-11): a log file
 * would hold it, but no compaction could then write its file group. The columns to check are
 * resolved once; a table without such columns pays nothing per row.
 */
final class RowRouter {
    /**
     * What {@link #bucket} returns for an append-only row whose bucket depends on its partition:
     * ask {@link #appendBucket}.
     */
    static final int BY_PARTITION = -2;

    /** What {@link #bucket} returns for a retraction that {@code ignore-delete} drops. */
    static final int DROPPED = -3;

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
    private final boolean partitioned;
    private final PartitionResolver partitions;
    private final TimePartitioner time;
    private final boolean timeOnly;
    private final IntFunction<Partition> partitionsById;
    private final TimestampCounts timestamps; // null if no column needs the check
    private final boolean ignoreDelete;

    /** Why the table's merge engine refuses retractions, or null: see MergeFunctions. */
    private final String retractionRefusal;

    RowRouter(String location, TableMetadata metadata, AppendBuckets appendBuckets) {
        Schema schema = metadata.schema();
        int buckets = metadata.options().bucket();
        int appendBucket = appendBuckets.first();
        ValidationException.check(
                appendBucket >= 0 && appendBucket < buckets,
                "Invalid append bucket %s for table %s: it has buckets 0 to %s",
                appendBucket,
                location,
                buckets - 1);
        this.location = location;
        this.schema = schema;
        this.keyPositions = schema.primaryKeyPositions();
        this.key = schema.hasPrimaryKey() ? KeyFields.of(schema.rowType(), keyPositions) : null;
        this.arity = schema.rowType().size();
        this.buckets = buckets;
        this.appendBuckets = appendBuckets;
        this.appendBucket = appendBuckets.isFixed() ? appendBucket : BY_PARTITION;
        this.partitioned = schema.isPartitioned();
        this.partitions = new PartitionResolver(schema);
        TimePartitioning timePartitioning = TimePartitioning.of(metadata);
        this.time = timePartitioning == null ? null : new TimePartitioner(timePartitioning, arity);
        this.timeOnly = time != null && timePartitioning.derivesAllPartitionKeys();
        this.partitionsById = timeOnly ? time::partition : partitions::partition;
        this.timestamps = TimestampCounts.of(schema.rowType());
        this.ignoreDelete = key != null && metadata.options().ignoreDelete();
        this.retractionRefusal = key == null ? null : MergeFunctions.retractionRefusal(metadata);
    }

    /** The primary key, or null for an append-only table. */
    KeyFields key() {
        return key;
    }

    int arity() {
        return arity;
    }

    /** The partitions by the ids {@link #partition} returned. */
    IntFunction<Partition> partitionsById() {
        return partitionsById;
    }

    /**
     * Checks the row and returns its bucket, or {@link #BY_PARTITION}. For a keyed table a -U row
     * is kept: it retracts its key, as a -D does, unless a later row of the key adds it again.
     *
     * @throws ValidationException for a row of the wrong arity, with a null key, with a timestamp
     *     base files cannot store, or (append-only tables) a -U or -D row
     */
    int bucket(BinaryRow row) {
        if (row.arity() != arity) {
            throw wrongArity(row);
        }
        // The kind byte, compared as a byte: no enum lookup per row.
        byte kind = row.bytes()[row.offset()];
        if ((kind & ~3) != 0) {
            RowKind.fromByteValue(kind); // throws, naming the invalid byte
        }
        if (timestamps != null) {
            int pos = timestamps.outOfRange(row);
            if (pos >= 0) {
                throw timestampOutOfRange(row, pos);
            }
        }
        if (key == null) {
            if (kind == UPDATE_BEFORE || kind == DELETE) {
                throw notAppendable(RowKind.fromByteValue(kind));
            }
            return appendBucket;
        }
        if ((kind & 1) != 0 && (ignoreDelete || retractionRefusal != null)) {
            if (ignoreDelete) {
                return DROPPED;
            }
            throw refusedRetraction(RowKind.fromByteValue(kind));
        }
        int bucket = key.bucketOfNonNullKey(row, buckets);
        if (bucket < 0) {
            throw nullKey(-1 - bucket);
        }
        return bucket;
    }

    /**
     * The row to buffer: {@code row} itself, or, for a table partitioned by time and identity
     * columns, a copy with the derived columns filled in, on which {@link #partition} resolves the
     * identity keys.
     */
    BinaryRow prepare(BinaryRow row) {
        return time != null && !timeOnly ? time.patch(row) : row;
    }

    /**
     * The row to buffer for a writer whose output is not written by a {@link LogFlusher} (bulk
     * writes, whose rows are spilled and merged before they are written): a copy with the derived
     * time-partition columns filled in, or {@code row} itself if the table has none.
     */
    BinaryRow prepareFilled(BinaryRow row) {
        return time != null ? time.patch(row) : row;
    }

    /** The id of the (prepared) row's partition (0 for an unpartitioned table). */
    int partition(BinaryRow row) {
        if (time == null) {
            return partitioned ? partitions.resolve(row) : 0;
        } else if (timeOnly) {
            return time.resolve(row); // a cached window: one comparison
        }
        return partitions.resolve(row);
    }

    /** The bucket of an append-only partition's rows, chosen once per partition. */
    int appendBucket(int partition) {
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

    /**
     * The filler of the derived time-partition columns for a flush that writes them into the
     * buffer's copies ({@link LogFlusher}), or null if the table has none or also has identity keys
     * ({@link #prepare} filled them).
     */
    TimePartitioner derivedColumns() {
        return timeOnly ? time : null;
    }

    private ValidationException wrongArity(BinaryRow row) {
        return new ValidationException(
                "Cannot write a row of "
                        + row.arity()
                        + " fields to table "
                        + location
                        + " with "
                        + arity
                        + " columns");
    }

    private ValidationException timestampOutOfRange(BinaryRow row, int pos) {
        Field field = schema.rowType().field(pos);
        DataType type = field.type();
        Timestamp value = row.getTimestamp(pos, type.precision());
        return new ValidationException(
                "Cannot write a row to table "
                        + location
                        + ": column '"
                        + field.name()
                        + "' ("
                        + type
                        + ") holds "
                        + (type.root() == TypeRoot.TIMESTAMP_LTZ
                                ? value.toInstant() + ""
                                : value.toString())
                        + ", out of the range base files store for "
                        + type.root()
                        + (type.precision() > 6 ? "(7..9)" : "(4..6)")
                        + ": "
                        + TimestampCounts.range(type)
                        + (type.precision() > 6
                                ? " (a 64-bit count of nanoseconds since 1970); a column of"
                                        + " precision 6 or less holds 0001-01-01 to 9999-12-31"
                                : " (a 64-bit count of microseconds since 1970)"));
    }

    private ValidationException refusedRetraction(RowKind kind) {
        return new ValidationException(
                "Cannot write a "
                        + kind.shortString()
                        + " record to table "
                        + location
                        + ": "
                        + retractionRefusal);
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
}
