package io.weir.flink.sink.internal;

import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.ScanTask;
import io.weir.Snapshot;
import io.weir.Table;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The back-pressure of in-job compaction (docs/flink-sink.md, "When compaction falls behind"): at a
 * checkpoint, a writer about to hand on files for a keyed file group that already holds {@code
 * compaction.stall-runs} sorted runs after its base waits until the job's compaction brings the
 * group below that, for at most {@code compaction.stall-timeout}. Ingestion then slows to the pace
 * compaction keeps, instead of leaving readers an ever longer merge; the wait shows as a longer
 * checkpoint and as Flink's back-pressure on the source.
 *
 * <p>One check per checkpoint, on the state the writer's table last read: each hand-over since adds
 * at most as many sorted runs to a group of this writer as it had files for one group (one per
 * write-buffer flush), so while that state's runs plus those stay below the limit, the table is not
 * read again (on an object store, a refresh is a few requests per writer and checkpoint). Otherwise
 * the table is refreshed and checked exactly; while waiting, one refresh per {@value #POLL_MILLIS}
 * ms. Nothing per record.
 */
public final class CompactionBackPressure {
    private static final Logger LOG = LoggerFactory.getLogger(CompactionBackPressure.class);
    private static final long POLL_MILLIS = 100;

    private static final CompactionBackPressure NONE =
            new CompactionBackPressure(null, Integer.MAX_VALUE, Duration.ZERO);

    private final Table table;
    private final int stallRuns;
    private final long timeoutNanos;
    private volatile long stalls;
    private volatile long stalledMillis;

    /**
     * The id of the state the table had read at the last check, the runs the hand-overs since may
     * have added to a group, and the most files of one group in the last hand-over.
     */
    private long knownId = -1;

    private int runsSince;
    private int lastHandOverRuns;

    private CompactionBackPressure(Table table, int stallRuns, Duration timeout) {
        this.table = table;
        this.stallRuns = stallRuns;
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * The back-pressure of a writer of {@code table}: none unless the job compacts the table itself
     * and it has a primary key (an append-only group has no sorted runs to bound).
     */
    public static CompactionBackPressure of(Table table, boolean compactInJob) {
        Duration timeout = table.options().compactionStallTimeout();
        if (!compactInJob
                || table.options().writeOnly()
                || !table.schema().hasPrimaryKey()
                || timeout.isZero()) {
            return NONE;
        }
        return new CompactionBackPressure(table, table.options().compactionStallRuns(), timeout);
    }

    /** Checkpoints at which the writer waited for compaction. */
    public long stalls() {
        return stalls;
    }

    /** The time the writer waited for compaction, in total. */
    public long stalledMillis() {
        return stalledMillis;
    }

    /**
     * Waits while a group of {@code files} holds {@code compaction.stall-runs} sorted runs after
     * its base. Call at each hand-over of the writer's files.
     */
    public void await(List<DataFile> files) throws InterruptedException {
        if (table == null || files.isEmpty()) {
            return;
        }
        Map<FileGroupId, Integer> adding = new LinkedHashMap<>();
        for (DataFile f : files) {
            adding.merge(f.fileGroup(), 1, Integer::sum);
        }
        Set<FileGroupId> groups = adding.keySet();
        Snapshot known = table.currentSnapshot();
        long id = known == null ? -1 : known.id();
        if (id != knownId) {
            // Read afresh since the last check (the writer lease's renewal refreshes the table).
            knownId = id;
            runsSince = 0;
        } else {
            runsSince += lastHandOverRuns;
        }
        // A hand-over adds one run per log file to a group: several if the write buffer was
        // flushed more than once since the last checkpoint.
        lastHandOverRuns = Collections.max(adding.values());
        if (firstBehind(groups, stallRuns - runsSince) == null) {
            return;
        }
        long start = System.nanoTime();
        refresh();
        FileGroupId behind = firstBehind(groups, stallRuns);
        if (behind == null) {
            return;
        }
        LOG.info(
                "Writer of table {} waits for compaction: file group {} holds {} or more sorted"
                        + " runs after its base (compaction.stall-runs)",
                table.location(),
                behind,
                stallRuns);
        while (behind != null) {
            if (System.nanoTime() - start >= timeoutNanos) {
                LOG.warn(
                        "Compaction of table {} did not bring file group {} below {} sorted runs"
                                + " within compaction.stall-timeout ({} ms); the writer hands its"
                                + " files on anyway and readers merge more runs until compaction"
                                + " catches up",
                        table.location(),
                        behind,
                        stallRuns,
                        TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
                break;
            }
            Thread.sleep(POLL_MILLIS);
            refresh();
            behind = firstBehind(groups, stallRuns);
        }
        stalls++;
        stalledMillis += TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private void refresh() {
        table.refresh();
        Snapshot latest = table.currentSnapshot();
        knownId = latest == null ? -1 : latest.id();
        runsSince = 0;
    }

    /**
     * The first group that holds {@code runs} or more sorted runs after its base in the table's
     * current state, or null.
     */
    private FileGroupId firstBehind(Set<FileGroupId> groups, int runs) {
        Snapshot snapshot = table.currentSnapshot();
        if (snapshot == null) {
            return null;
        }
        Map<FileGroupId, List<DataFile>> live = snapshot.fileGroups();
        for (FileGroupId group : groups) {
            List<DataFile> files = live.get(group);
            int held = files == null ? 0 : new ScanTask(snapshot.id(), group, files).deltaRuns();
            if (held >= runs) {
                return group;
            }
        }
        return null;
    }
}
