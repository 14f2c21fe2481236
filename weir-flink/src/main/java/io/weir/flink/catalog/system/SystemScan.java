package io.weir.flink.catalog.system;

import io.weir.Snapshot;
import io.weir.Table;

/**
 * What a system table's rows are computed from: the table, and the snapshot a query chose with
 * {@code scan.snapshot-id}, {@code scan.tag-name} or {@code scan.timestamp} (-1: the latest).
 */
record SystemScan(Table table, long snapshotId) {
    /** The snapshot the rows describe. */
    Snapshot snapshot() {
        return snapshotId < 0 ? table.currentSnapshot() : table.snapshot(snapshotId);
    }
}
