package io.weir.flink.source.internal;

import io.weir.expressions.Expression;
import io.weir.flink.source.StartMode;
import io.weir.io.FileIO;

import org.apache.flink.util.function.SerializableSupplier;

import java.io.Serializable;
import java.util.List;

/**
 * What a Weir source reads, as validated by its builder; shipped to the enumerator and the readers.
 *
 * @param location the table location
 * @param io creates the table's file system on each task
 * @param columns the columns to read, in order, or null for all
 * @param filter rows to read (also prunes files)
 * @param limit the most rows each reader emits in a bounded read, or -1
 * @param startMode where the read starts
 * @param snapshotId the snapshot (FULL) or first commit (FROM_SNAPSHOT), or -1
 * @param timestampMillis the snapshot as of (FULL) or the commits from (FROM_SNAPSHOT), or -1
 * @param incrementalFrom with {@code incrementalTo}: the change range (from, to] of a bounded
 *     incremental read, or -1
 * @param incrementalTo the end of the change range, or -1
 * @param streaming whether the read follows new commits (never for an incremental range)
 * @param discoveryIntervalMillis how often a streaming read looks for new commits
 * @param consumerId the id of the source's snapshot lease, or null to mint one at a start without
 *     state (kept in the enumerator's checkpoints)
 * @param leaseTtlMillis how long the lease protects the snapshots the source needs without being
 *     renewed; 0: the source takes no lease
 * @param schemaId the schema version whose columns the read returns (files of other versions are
 *     mapped onto it by field id)
 * @param countRows for a bounded snapshot read: emit for each split one row, the number of rows it
 *     holds (one BIGINT), instead of its rows: a {@code COUNT(*)} pushed into the source
 * @param baseFilesOnly for a bounded snapshot read: read only the base files of each file group,
 *     leaving out the rows of logs not compacted yet (read-optimized, the {@code $ro} system table)
 */
public record ReadSpec(
        String location,
        SerializableSupplier<FileIO> io,
        List<String> columns,
        Expression filter,
        long limit,
        StartMode startMode,
        long snapshotId,
        long timestampMillis,
        long incrementalFrom,
        long incrementalTo,
        boolean streaming,
        long discoveryIntervalMillis,
        String consumerId,
        long leaseTtlMillis,
        int schemaId,
        boolean countRows,
        boolean baseFilesOnly)
        implements Serializable {

    public ReadSpec {
        columns = columns == null ? null : List.copyOf(columns);
    }

    public boolean isIncremental() {
        return incrementalTo >= 0;
    }

    /** Whether the source holds a snapshot lease. */
    public boolean leases() {
        return leaseTtlMillis > 0;
    }

    /** Whether the read ends: not streaming, or an explicit change range. */
    public boolean bounded() {
        return !streaming || isIncremental();
    }
}
