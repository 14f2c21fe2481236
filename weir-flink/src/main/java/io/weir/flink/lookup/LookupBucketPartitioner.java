package io.weir.flink.lookup;

import io.weir.data.BinaryRow;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends each probe of a lookup join to the subtask that owns its bucket (bucket modulo the
 * subtasks), so that each lookup subtask loads only its share of the table: Flink 2's lookup custom
 * shuffle (docs/lookup-join.md). Only for a join key that holds the whole primary key; the bucket
 * is the writer's, of the table's bucket count when the query was planned. The routing only places
 * the work: a subtask still answers any key correctly (it loads a key's bucket on demand), so a
 * later rescale makes the shuffle less useful, never wrong.
 */
public final class LookupBucketPartitioner implements Serializable {
    private static final long serialVersionUID = 1L;

    private final RowType keyType;
    private final ArrayList<String> primaryKey;
    private final int buckets;

    private transient LookupKeys keys;

    /**
     * @param keyType the planner's join key rows: the key fields, in the order of the lookup's keys
     * @param primaryKey the table's primary key, all of whose fields are in the join key
     * @param buckets the table's bucket count
     */
    LookupBucketPartitioner(RowType keyType, List<String> primaryKey, int buckets) {
        this.keyType = keyType;
        this.primaryKey = new ArrayList<>(primaryKey);
        this.buckets = buckets;
    }

    /**
     * The partitioner for a lookup by {@code keys} (positions in {@code rowType}), or null when the
     * key does not hold the whole primary key.
     */
    public static LookupBucketPartitioner of(
            RowType rowType, int[] keys, List<String> primaryKey, int buckets) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (int position : keys) {
            fields.add(rowType.getFields().get(position));
        }
        RowType keyType = new RowType(false, fields);
        LookupBucketPartitioner partitioner =
                new LookupBucketPartitioner(keyType, primaryKey, buckets);
        return partitioner.keys().byBucket() ? partitioner : null;
    }

    /** The subtask of {@code numPartitions} that looks up this join key. */
    public int partition(RowData joinKey, int numPartitions) {
        BinaryRow key = keys().probe(joinKey);
        // A null key field matches nothing: any subtask answers it.
        return key == null ? 0 : keys().bucket(key, buckets) % numPartitions;
    }

    private LookupKeys keys() {
        if (keys == null) {
            int[] positions = new int[keyType.getFieldCount()];
            for (int i = 0; i < positions.length; i++) {
                positions[i] = i;
            }
            keys = new LookupKeys(keyType, positions, primaryKey);
        }
        return keys;
    }
}
