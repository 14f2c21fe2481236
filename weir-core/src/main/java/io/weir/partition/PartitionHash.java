package io.weir.partition;

import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.types.RowType;

import java.io.Serializable;
import java.util.stream.IntStream;

/**
 * The hash of a row's partition for the bucket shuffle, equal for every row of one partition: a
 * hash of the identity partition fields, combined, for time partitions, with the row's period
 * (resolved from the time column through a cached window, {@link TimePartitioner}). Derived columns
 * are not read: the incoming row does not hold them yet. No allocation per row.
 */
public final class PartitionHash implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int[] identityKeys;
    private final TimePartitioning time;

    private transient KeyFields fields;
    private transient TimePartitioner partitioner;
    private transient boolean opened;

    private PartitionHash(int[] identityKeys, TimePartitioning time) {
        this.identityKeys = identityKeys.clone();
        this.time = time;
    }

    /** The partition hash of a table's rows; {@code time} is its time partitioning, or null. */
    public static PartitionHash of(Schema schema, TimePartitioning time) {
        int[] keys = schema.partitionKeyPositions();
        if (time != null) {
            keys =
                    IntStream.of(keys)
                            .filter(p -> !time.isDerived(schema.rowType().field(p).name()))
                            .toArray();
        }
        return new PartitionHash(keys, time);
    }

    /** Identity partitions at these positions of the row. */
    public static PartitionHash identity(int[] partitionKeys) {
        return new PartitionHash(partitionKeys, null);
    }

    /** The hash of the row's partition; 0 for an unpartitioned table. */
    public int hash(BinaryRow row, RowType rowType) {
        if (!opened) {
            fields = identityKeys.length == 0 ? null : KeyFields.of(rowType, identityKeys);
            partitioner = time == null ? null : new TimePartitioner(time, rowType.size());
            opened = true;
        }
        int h = fields == null ? 0 : fields.hash(row);
        return partitioner == null ? h : 31 * h + Long.hashCode(partitioner.period(row));
    }
}
