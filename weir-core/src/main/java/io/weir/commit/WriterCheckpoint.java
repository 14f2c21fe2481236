package io.weir.commit;

/**
 * The last checkpoint a writer committed, and the commit that holds it: the basis of idempotent
 * re-commits after a failover.
 *
 * @param checkpointId the greatest checkpoint id the writer committed
 * @param commitId the commit that holds it
 */
public record WriterCheckpoint(long checkpointId, long commitId) {}
