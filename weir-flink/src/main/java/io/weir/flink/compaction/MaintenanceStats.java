package io.weir.flink.compaction;

import io.weir.CompactionResult;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the compaction of an ingestion job did so far; written by the compaction thread, read by
 * metric gauges and tests from any thread.
 */
public final class MaintenanceStats {
    private final AtomicLong rounds = new AtomicLong();
    private final AtomicLong failedRounds = new AtomicLong();
    private final AtomicLong consecutiveFailures = new AtomicLong();
    private final AtomicLong compactions = new AtomicLong();
    private final AtomicLong compactedFileGroups = new AtomicLong();
    private final AtomicLong replacedFiles = new AtomicLong();
    private final AtomicLong expiries = new AtomicLong();
    private final AtomicLong expiredPartitions = new AtomicLong();
    private volatile long lastCompactionMillis = -1;
    private volatile long lastCompactionCommitId = -1;
    private volatile long lastCompactionBytesRead = -1;
    private volatile long lastCompactionBytesWritten = -1;

    void roundDone() {
        rounds.incrementAndGet();
        consecutiveFailures.set(0);
    }

    void roundFailed() {
        failedRounds.incrementAndGet();
        consecutiveFailures.incrementAndGet();
    }

    void compacted(CompactionResult result, long millis, long bytesRead, long bytesWritten) {
        lastCompactionBytesRead = bytesRead;
        lastCompactionBytesWritten = bytesWritten;
        compactions.incrementAndGet();
        compactedFileGroups.addAndGet(result.fileGroups());
        replacedFiles.addAndGet(result.filesRemoved());
        lastCompactionMillis = millis;
        lastCompactionCommitId = result.commitId();
    }

    void expired() {
        expiries.incrementAndGet();
    }

    void partitionsExpired(int count) {
        expiredPartitions.addAndGet(count);
    }

    /** Rounds that finished without a failure (with or without a compaction). */
    public long rounds() {
        return rounds.get();
    }

    public long failedRounds() {
        return failedRounds.get();
    }

    /** Rounds failed since the last one that succeeded: 0 while compaction keeps up. */
    public long consecutiveFailures() {
        return consecutiveFailures.get();
    }

    /** Compaction commits made. */
    public long compactions() {
        return compactions.get();
    }

    public long compactedFileGroups() {
        return compactedFileGroups.get();
    }

    public long replacedFiles() {
        return replacedFiles.get();
    }

    /** Snapshot expiries run ({@code snapshot.expire.in-job}). */
    public long expiries() {
        return expiries.get();
    }

    /** Time partitions dropped by partition expiry ({@code partition.expiration-time}). */
    public long expiredPartitions() {
        return expiredPartitions.get();
    }

    /** Duration of the last compaction round that committed, or -1. */
    public long lastCompactionMillis() {
        return lastCompactionMillis;
    }

    /** Bytes of the files the last committed compaction read, or -1. */
    public long lastCompactionBytesRead() {
        return lastCompactionBytesRead;
    }

    /** Bytes of the base files the last committed compaction wrote, or -1. */
    public long lastCompactionBytesWritten() {
        return lastCompactionBytesWritten;
    }

    public long lastCompactionCommitId() {
        return lastCompactionCommitId;
    }
}
