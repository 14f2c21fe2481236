package io.weir;

import java.time.Duration;
import java.util.List;

/**
 * Leases by which writers protect the files they have written but not committed yet from {@link
 * Table#removeOrphanFiles()}. A writer that holds files across a checkpoint (the Flink sink) keeps
 * one lease under its id, on the creation time of its oldest file not yet committed, and renews it
 * before it ends (a third of its duration after the last renewal); a writer that stops renewing
 * loses its protection when the lease ends, so a dead job never stops orphan removal for ever. See
 * docs/table-services.md, "Writer leases".
 *
 * <p>Protocol: a writer writes its lease (on a time at or before its next file's creation) before
 * it creates the file; orphan removal lists the table's files first and reads the leases second. So
 * every file that orphan removal sees is either covered by a lease it reads, or committed (a writer
 * moves its lease past a file only after the file's commit, and orphan removal reads the metadata
 * after the leases).
 */
public interface WriterLeases {
    /**
     * How far a writer's clock and the file system's modification times may differ: orphan removal
     * keeps files modified at or after a live lease's {@code oldestFileMillis} minus this. It also
     * absorbs the whole-second modification times of S3.
     */
    Duration CLOCK_ALLOWANCE = Duration.ofMinutes(1);

    /**
     * Takes or renews (replaces) the lease of {@code writerId}: unreferenced files modified at or
     * after {@code oldestFileMillis} stay until {@code ttl} from now (by the table's clock).
     *
     * @throws io.weir.exceptions.ValidationException if the id, time or ttl is invalid
     */
    WriterLease hold(String writerId, long oldestFileMillis, Duration ttl);

    /** Ends the lease of {@code writerId}; does nothing if it has none. */
    void release(String writerId);

    /** Every lease that parses, including ended ones that orphan removal has not removed yet. */
    List<WriterLease> list();

    /**
     * Takes the lease of {@code writerId} now, before the writer creates any file, and keeps it on
     * the files the writer hands on until it sees them committed ({@link PendingFilesLease}).
     */
    PendingFilesLease forPendingFiles(String writerId, Duration ttl);
}
