package io.weir.flink.compat;

import io.weir.flink.lookup.LookupBucketPartitioner;

import org.apache.flink.table.connector.source.LookupTableSource;

import java.util.Optional;

/**
 * A lookup source of Flink 1.20, which has no lookup custom shuffle: the partitioner is unused
 * here. weir-flink-2's copy offers it to Flink 2's planner ({@code SupportsLookupCustomShuffle}).
 */
public interface VersionedLookupSource extends LookupTableSource {
    /** How probes are sent to the lookup subtasks, once the lookup keys are known. */
    Optional<LookupBucketPartitioner> lookupPartitioner();
}
