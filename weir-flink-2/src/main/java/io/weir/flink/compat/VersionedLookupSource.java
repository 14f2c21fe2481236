package io.weir.flink.compat;

import io.weir.flink.lookup.LookupBucketPartitioner;

import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsLookupCustomShuffle;
import org.apache.flink.table.data.RowData;

import java.util.Optional;

/**
 * A lookup source of Flink 2, whose planner sends each probe to the subtask that the source's
 * partitioner names when the query asks for it ({@code LOOKUP('shuffle' = 'true')}): Weir's bucket
 * shuffle. Flink 1.20's copy of this interface has no such hook.
 */
public interface VersionedLookupSource extends LookupTableSource, SupportsLookupCustomShuffle {
    /** How probes are sent to the lookup subtasks, once the lookup keys are known. */
    Optional<LookupBucketPartitioner> lookupPartitioner();

    @Override
    default Optional<InputDataPartitioner> getPartitioner() {
        return lookupPartitioner().map(BucketShuffle::new);
    }

    /** Flink's partitioner interface over Weir's partitioner. */
    final class BucketShuffle implements InputDataPartitioner {
        private static final long serialVersionUID = 1L;

        private final LookupBucketPartitioner partitioner;

        BucketShuffle(LookupBucketPartitioner partitioner) {
            this.partitioner = partitioner;
        }

        @Override
        public int partition(RowData joinKeys, int numPartitions) {
            return partitioner.partition(joinKeys, numPartitions);
        }
    }
}
