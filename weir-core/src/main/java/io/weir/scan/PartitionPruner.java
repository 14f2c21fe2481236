package io.weir.scan;

import io.weir.Partition;
import io.weir.TableMetadata;
import io.weir.data.Timestamp;
import io.weir.expressions.BoundExpression;
import io.weir.partition.TimePartitioning;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides, once per partition of a scan, whether a bound filter might match rows of a partition: by
 * the partition's values, and for time partitions also by the instants of its period, so that a
 * filter on the time column prunes the partitions derived from it (e.g. {@code ts >= '2024-05-02
 * 10:00'} skips every day before). Not thread-safe.
 */
final class PartitionPruner {
    private final BoundExpression filter;
    private final List<String> partitionKeys;
    private final TimePartitioning time;
    private final Map<Partition, Boolean> decided = new HashMap<>();

    PartitionPruner(TableMetadata metadata, BoundExpression filter) {
        this.filter = filter;
        this.partitionKeys = metadata.schema().partitionKeys();
        this.time = TimePartitioning.of(metadata);
    }

    boolean mightMatch(Partition partition) {
        if (filter.isAlwaysTrue()) {
            return true;
        }
        return decided.computeIfAbsent(partition, this::decide);
    }

    private boolean decide(Partition partition) {
        Long period = time == null ? null : time.period(partition);
        if (period == null) {
            return filter.mightMatchPartition(partition, partitionKeys);
        }
        // Every time in the partition lies in its period's instants; none is null.
        long[] bounds = time.instantBounds(period);
        return filter.mightMatchPartition(
                partition,
                partitionKeys,
                time.timeColumn(),
                Timestamp.ofMillis(bounds[0]),
                new Timestamp(bounds[1] - 1, time.compactTime() ? 0 : 999_999));
    }
}
