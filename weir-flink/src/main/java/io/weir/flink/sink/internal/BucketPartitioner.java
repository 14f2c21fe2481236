package io.weir.flink.sink.internal;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.flink.FlinkRows;
import io.weir.flink.FlinkTypes;
import io.weir.partition.PartitionHash;

import org.apache.flink.runtime.io.network.api.writer.SubtaskStateMapper;
import org.apache.flink.runtime.plugable.SerializationDelegate;
import org.apache.flink.streaming.runtime.partitioner.StreamPartitioner;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The bucket shuffle of a table with a primary key: sends every row of one file group (partition,
 * bucket) to the same writer, so that exactly one writer writes each file group in a checkpoint and
 * the changes of one key keep their order.
 *
 * <p>The channel is {@link #channel}: the buckets of one partition go to consecutive writers,
 * starting at one that the partition's hash picks, so a partition's buckets spread evenly over the
 * writers and different partitions start at different writers. Per row the work is a zero-copy view
 * of the row and two hashes on its bytes; no allocation. A row that is not yet binary is converted
 * once, here, and the record then carries the binary row on to the record writer's serializer. The
 * writer hashes the key again for its own index: cheaper than shipping the bucket in a wrapper type
 * with its own serializer.
 */
public final class BucketPartitioner extends StreamPartitioner<RowData> {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final int[] primaryKey;
    private final PartitionHash partitionHash;
    private final int buckets;

    private transient FlinkRows.ToWeir toWeir;
    private transient KeyFields key;
    private transient io.weir.types.RowType weirType;

    public BucketPartitioner(RowType rowType, int[] primaryKey, int[] partitionKeys, int buckets) {
        this(rowType, primaryKey, PartitionHash.identity(partitionKeys), buckets);
    }

    public BucketPartitioner(
            RowType rowType, int[] primaryKey, PartitionHash partitionHash, int buckets) {
        if (primaryKey.length == 0) {
            throw new IllegalArgumentException("A bucket shuffle needs a primary key");
        }
        this.rowType = rowType;
        this.primaryKey = primaryKey.clone();
        this.partitionHash = partitionHash;
        this.buckets = buckets;
    }

    /**
     * The writer of a file group: {@code (floorMod(partitionHash, channels) + bucket) % channels}.
     */
    public static int channel(int partitionHash, int bucket, int channels) {
        return (Math.floorMod(partitionHash, channels) + bucket) % channels;
    }

    @Override
    public int selectChannel(SerializationDelegate<StreamRecord<RowData>> record) {
        if (toWeir == null) {
            init();
        }
        StreamRecord<RowData> element = record.getInstance();
        RowData value = element.getValue();
        BinaryRowData binary = toWeir.binary(value);
        if (binary != value) {
            // The record writer serializes this record right after it asks for the channel. Given
            // the binary form (the same row), it copies bytes instead of converting the row again.
            element.replace(binary);
        }
        BinaryRow row = toWeir.view(binary);
        int hash = partitionHash.hash(row, weirType);
        return channel(hash, key.bucket(row, buckets), numberOfChannels);
    }

    private void init() {
        weirType = FlinkTypes.toWeir(rowType);
        toWeir = new FlinkRows.ToWeir(rowType);
        key = KeyFields.of(weirType, primaryKey);
    }

    @Override
    public StreamPartitioner<RowData> copy() {
        return new BucketPartitioner(rowType, primaryKey, partitionHash, buckets);
    }

    /** A row's writer depends on all writers' state after rescaling: give every one all of it. */
    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        return SubtaskStateMapper.FULL;
    }

    @Override
    public boolean isPointwise() {
        return false;
    }

    @Override
    public String toString() {
        return "WEIR_BUCKET";
    }
}
