package io.weir.write;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.PendingFilesLease;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.WriterLeases;
import io.weir.exceptions.SnapshotExpiredException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The {@link PendingFilesLease} of a table. Keeps a writer's lease ({@link WriterLeases}) on the
 * files it has written and not seen committed: for a writer, such as a Flink sink writer, whose
 * files are committed by someone else some time after it hands them on.
 *
 * <p>The lease's time is the start of the oldest write interval whose files are not known to be
 * committed: every file of an interval is created after it starts. An interval starts when the
 * writer is created or hands its files on ({@link #handedOn}). The writer learns that a hand-over
 * was committed from the table itself, at the next renewal: one file of it is live in the latest
 * snapshot, or was added by a commit made after the hand-over (for files compacted away since).
 * Hand-overs are committed in order, so the first one not known committed bounds the lease.
 *
 * <p>The lease is written when the writer is created, before any file, and renewed whenever a
 * hand-over or {@link #renewIfDue} finds a third of its duration passed: a writer that hands files
 * on at every checkpoint sends no request for its lease in between (on an object store, the
 * requests of a table refresh and a lease write per writer and checkpoint). {@link #close} releases
 * it if every hand-over is known committed; otherwise the lease stays until it ends, to protect the
 * files a restored job commits again.
 *
 * <p>Not thread-safe: one per writer.
 */
public final class PendingFilesLeaseImpl implements PendingFilesLease {
    private static final Logger LOG = LoggerFactory.getLogger(PendingFilesLeaseImpl.class);

    private final Table table;
    private final String writerId;
    private final Duration ttl;
    private final Clock clock;
    private final ArrayDeque<HandOver> pending = new ArrayDeque<>();
    private long intervalStart;
    private long renewedAt;

    /** One hand-over not known committed: its interval's start, one of its files. */
    private static final class HandOver {
        final long since;
        final DataFile sample;

        /**
         * Every commit up to this one was searched for the sample, or made before the hand-over.
         */
        long searchedUpTo;

        HandOver(long since, DataFile sample, long searchedUpTo) {
            this.since = since;
            this.sample = sample;
            this.searchedUpTo = searchedUpTo;
        }
    }

    /** Takes the lease now, before the writer creates any file. */
    public PendingFilesLeaseImpl(Table table, String writerId, Duration ttl) {
        this(table, writerId, ttl, Clock.systemUTC());
    }

    /**
     * @param clock the writer's clock, to compare with the file system's modification times
     */
    public PendingFilesLeaseImpl(Table table, String writerId, Duration ttl, Clock clock) {
        this.table = table;
        this.writerId = writerId;
        this.ttl = ttl;
        this.clock = clock;
        this.intervalStart = clock.millis();
        renew();
    }

    @Override
    public String writerId() {
        return writerId;
    }

    /**
     * The writer handed these files on (to be committed by someone else); its next files belong to
     * a new interval. Renews the lease if it is due, and otherwise costs no request: the lease's
     * time stays at the start of the oldest interval not known committed, which is before every
     * file the writer creates next, so the lease written last still covers them.
     */
    @Override
    public void handedOn(List<DataFile> files) {
        if (!files.isEmpty()) {
            // No commit up to the state the table last read can hold them: theirs follows this
            // hand-over. A state behind the latest only makes the search at renewal start lower.
            pending.add(new HandOver(intervalStart, files.get(0), table.currentSnapshot().id()));
        }
        intervalStart = clock.millis();
        renewIfDue();
    }

    /** Renews the lease if a third of its duration passed since the last renewal: a clock read. */
    @Override
    public void renewIfDue() {
        if (clock.millis() - renewedAt >= ttl.toMillis() / 3) {
            renew();
        }
    }

    /** The time the lease protects files from (the writer's clock). */
    @Override
    public long oldestFileMillis() {
        return pending.isEmpty() ? intervalStart : pending.peek().since;
    }

    private void renew() {
        if (!pending.isEmpty()) {
            table.refresh();
            forgetCommitted(table.currentSnapshot());
        }
        table.writerLeases().hold(writerId, oldestFileMillis(), ttl);
        renewedAt = clock.millis();
    }

    /**
     * Drops the hand-overs known committed. They are committed in order, so the newest one whose
     * sample is live proves every older one committed, without reading a commit.
     */
    private void forgetCommitted(Snapshot latest) {
        int newestLive = -1;
        int i = 0;
        for (HandOver h : pending) {
            if (isLive(h.sample, latest)) {
                newestLive = i;
            }
            i++;
        }
        for (int k = 0; k <= newestLive; k++) {
            pending.poll();
        }
        // None left has a live sample: each was compacted away since, or is not committed yet.
        while (!pending.isEmpty()) {
            HandOver h = pending.peek();
            long foundIn = committedIn(h, latest);
            if (foundIn < 0) {
                return;
            }
            pending.poll();
            HandOver next = pending.peek();
            if (next != null) {
                // Committed in order: the next one's commit is this one or a later one.
                next.searchedUpTo = Math.max(next.searchedUpTo, foundIn - 1);
            }
        }
    }

    private static boolean isLive(DataFile sample, Snapshot latest) {
        List<DataFile> group = latest.fileGroups().get(sample.fileGroup());
        if (group != null) {
            for (DataFile f : group) {
                if (f.path().equals(sample.path())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The commit after the hand-over that added its sample (which is not live: it was compacted
     * away since, or is not committed yet), or -1 if none up to {@code latest} did.
     */
    private long committedIn(HandOver h, Snapshot latest) {
        for (long id = h.searchedUpTo + 1; id <= latest.id(); id++) {
            Commit commit;
            try {
                commit = table.commit(id);
            } catch (SnapshotExpiredException e) {
                continue; // cannot know from it; a later commit or the next renewal may tell
            }
            h.searchedUpTo = id;
            for (DataFile f : commit.added()) {
                if (f.path().equals(h.sample.path())) {
                    return id;
                }
            }
        }
        return -1;
    }

    /**
     * Releases the lease if every hand-over is known committed; otherwise leaves it to end by
     * itself, so that the files a restored job commits again stay protected meanwhile.
     */
    @Override
    public void close() {
        try {
            if (!pending.isEmpty()) {
                renew();
            }
            if (pending.isEmpty()) {
                table.writerLeases().release(writerId);
            } else {
                LOG.info(
                        "Leaving writer lease {} of table {} to end by itself: {} hand-overs are"
                                + " not known to be committed yet",
                        writerId,
                        table.location(),
                        pending.size());
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Cannot release writer lease {} of table {}; it ends by itself",
                    writerId,
                    table.location(),
                    e);
        }
    }
}
