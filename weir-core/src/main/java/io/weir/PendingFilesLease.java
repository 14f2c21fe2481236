package io.weir;

import java.util.List;

/**
 * A writer's lease ({@link WriterLeases}) kept on the files it has written and not seen committed,
 * for a writer whose files someone else commits some time after it hands them on (the Flink sink).
 * Get one with {@link WriterLeases#forPendingFiles}; it is held from then until {@link #close()}
 * (or, if hand-overs are not known committed by then, until it ends). See docs/table-services.md,
 * "Writer leases". Not thread-safe: one per writer.
 */
public interface PendingFilesLease extends AutoCloseable {
    String writerId();

    /**
     * The writer handed these files on (to be committed by someone else); its next files belong to
     * a new interval. Renews the lease if it is due ({@link #renewIfDue}); otherwise no I/O.
     */
    void handedOn(List<DataFile> files);

    /** Renews the lease if a third of its duration passed since the last renewal: a clock read. */
    void renewIfDue();

    /** The time the lease protects files from (the writer's clock). */
    long oldestFileMillis();

    /**
     * Releases the lease if every hand-over is known committed; otherwise leaves it to end by
     * itself, so that the files a restored job commits again stay protected meanwhile.
     */
    @Override
    void close();
}
