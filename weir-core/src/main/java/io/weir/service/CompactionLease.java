package io.weir.service;

import io.weir.Compaction;
import io.weir.WriterLease;
import io.weir.WriterLeases;

import java.time.Clock;
import java.util.UUID;

/**
 * The writer lease ({@link io.weir.WriterLeases}) of one {@link Compaction}: its outputs exist
 * before the commit that references them, so without a lease an orphan removal with a cutoff below
 * the compaction's duration could delete them, and the commit would fail. Taken before the first
 * output file, on the writer's clock then; renewed when a third of {@link Compaction#LEASE_TTL}
 * passed, checked (a clock read) before each output file and before the commit; ended when the
 * commit has landed or failed, or the outputs are abandoned. A compaction whose rewrites run in
 * other processes shares one lease ({@link #share}): each participant renews the same id on the
 * same time, and whoever commits ends it.
 *
 * <p>Thread-safe: the in-job round rewrites groups of one compaction on several threads.
 */
final class CompactionLease {
    private final WriterLeases leases;
    private final Clock clock;
    private String writerId;
    private long oldestFileMillis;
    private WriterLease current;
    private volatile long renewAt = Long.MIN_VALUE;

    /**
     * @param clock the table's clock, by which leases end
     */
    CompactionLease(WriterLeases leases, Clock clock) {
        this.leases = leases;
        this.clock = clock;
    }

    /** Use {@code lease} (taken by another compaction of this table) instead of one of its own. */
    synchronized void share(WriterLease lease) {
        writerId = lease.writerId();
        oldestFileMillis = lease.oldestFileMillis();
        renewAt = Long.MIN_VALUE; // renew at the first output: the lease may be old by then
    }

    /** Takes the lease if none is held, else renews it if due; returns it. */
    synchronized WriterLease hold() {
        if (writerId == null) {
            writerId = "compaction-" + UUID.randomUUID();
            oldestFileMillis = System.currentTimeMillis();
        } else if (clock.millis() < renewAt) {
            return current;
        }
        return write();
    }

    /**
     * Before an output file or the commit: a clock read, and a lease write if the lease held is due
     * for renewal. Takes none.
     */
    void renewIfDue() {
        if (clock.millis() >= renewAt) {
            synchronized (this) {
                if (writerId != null && clock.millis() >= renewAt) {
                    write();
                }
            }
        }
    }

    private WriterLease write() {
        current = leases.hold(writerId, oldestFileMillis, Compaction.LEASE_TTL);
        renewAt = clock.millis() + Compaction.LEASE_TTL.toMillis() / 3;
        return current;
    }

    /** Ends the lease, if one is held; best effort (an undeleted lease ends by itself). */
    synchronized void release() {
        if (writerId == null) {
            return;
        }
        try {
            leases.release(writerId);
        } catch (RuntimeException e) {
            // It ends by itself within LEASE_TTL.
        }
        writerId = null;
        current = null;
        renewAt = Long.MIN_VALUE;
    }
}
