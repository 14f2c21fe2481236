package io.weir.flink.source.internal;

import io.weir.IncrementalScan;
import io.weir.Table;
import io.weir.TableScan;
import io.weir.Tables;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowReader;
import io.weir.flink.source.WeirSplit;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a reader subtask keeps across its split readers: Flink closes an idle fetcher with its split
 * reader and creates a new one for the next split, but the table should be loaded once and a limit
 * counts the rows of all splits.
 */
final class SplitOpener {
    private final ReadSpec spec;
    private final long limit;
    private final AtomicLong fetched = new AtomicLong();
    private TableScan scan;
    private IncrementalScan changes;
    private Table table;

    /** The commit whose time {@link #commitMillis} holds; fetcher thread only. */
    private long timedCommit = -1;

    private long commitMillis;

    /** FLIP-33's currentFetchEventTimeLag: read by a metric reporter. -1: nothing fetched yet. */
    private volatile long fetchLagMillis = -1;

    SplitOpener(ReadSpec spec) {
        this.spec = spec;
        this.limit = spec.bounded() && spec.limit() >= 0 ? spec.limit() : Long.MAX_VALUE;
    }

    String location() {
        return spec.location();
    }

    /** Counts a fetched row against the limit; false if the limit was already reached. */
    boolean tryFetch() {
        if (limit == Long.MAX_VALUE) {
            return true;
        }
        return fetched.getAndUpdate(n -> n < limit ? n + 1 : n) < limit;
    }

    boolean limitReached() {
        return limit != Long.MAX_VALUE && fetched.get() >= limit;
    }

    synchronized RowReader open(WeirSplit split) {
        if (scan == null) {
            table = Tables.load(spec.io().get(), spec.location());
            TableScan s = table.newScan().useSchema(spec.schemaId()).filter(spec.filter());
            IncrementalScan c =
                    table.newIncrementalScan().useSchema(spec.schemaId()).filter(spec.filter());
            if (spec.columns() != null) {
                s = s.select(spec.columns());
                c = c.select(spec.columns());
            }
            scan = s;
            changes = c;
        }
        measureFetchLag(split.commitOrder());
        if (spec.countRows()) {
            return count(scan.count(split.scanTask()));
        }
        return split.isSnapshot() ? scan.open(split.scanTask()) : changes.open(split.changeTask());
    }

    /**
     * Rows carry no event time of their own: a change's is the time of the commit that made it
     * visible, so a split's fetch lag is the time from its commit (the end of its change range, or
     * its snapshot) to the moment its reading starts. One commit file read per new commit.
     */
    private void measureFetchLag(long commitId) {
        if (commitId < 1) {
            return;
        }
        try {
            if (commitId != timedCommit) {
                commitMillis = table.commit(commitId).timestampMillis();
                timedCommit = commitId;
            }
            fetchLagMillis = Math.max(0, System.currentTimeMillis() - commitMillis);
        } catch (RuntimeException e) {
            // Expired or unreadable: the metric keeps its last value; reading goes on.
        }
    }

    /** The fetch lag of the split whose reading started last, or -1. */
    long fetchLagMillis() {
        return fetchLagMillis;
    }

    /** One row: the count. */
    private static RowReader count(long rows) {
        BinaryRowWriter writer = new BinaryRowWriter(1);
        writer.writeLong(0, rows);
        BinaryRow row = writer.complete();
        return new RowReader() {
            private boolean read;

            @Override
            public boolean next() {
                boolean first = !read;
                read = true;
                return first;
            }

            @Override
            public BinaryRow row() {
                return row;
            }

            @Override
            public void close() {}
        };
    }
}
