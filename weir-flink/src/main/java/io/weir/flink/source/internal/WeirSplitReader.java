package io.weir.flink.source.internal;

import io.weir.data.RowReader;
import io.weir.flink.source.WeirSplit;

import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Comparator;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Reads splits one at a time on the fetcher thread, in commit order, in batches of copied rows.
 * Commit order matters after a restore: the restored splits of a reader may arrive in any order,
 * and the older changes of a file group must be emitted first.
 */
final class WeirSplitReader implements SplitReader<BinaryRowData, WeirSplit> {
    static final int MAX_BATCH_ROWS = 4096;
    static final int MAX_BATCH_BYTES = 1 << 20;
    private static final int MIN_BATCH_BYTES = 4 << 10;

    private static final Logger LOG = LoggerFactory.getLogger(WeirSplitReader.class);

    private record Queued(WeirSplit split, long arrival) {}

    private final SplitOpener opener;
    private final int arity;
    private final PriorityQueue<Queued> queue =
            new PriorityQueue<>(
                    Comparator.comparingLong((Queued q) -> q.split().commitOrder())
                            .thenComparingLong(Queued::arrival));
    private long arrivals;

    /** The size of the last batch: a new batch starts with room for as much (few regrowths). */
    private int batchBytes = MIN_BATCH_BYTES;

    private WeirSplit current;
    private RowReader reader;

    WeirSplitReader(SplitOpener opener, int arity) {
        this.opener = opener;
        this.arity = arity;
    }

    @Override
    public RecordsWithSplitIds<BinaryRowData> fetch() {
        if (current == null) {
            Queued next = queue.poll();
            if (next == null) {
                return new RecordsBySplits<>(Map.of(), Set.of());
            }
            current = next.split();
            if (opener.limitReached()) {
                return done(new RowBatch(current.splitId(), arity, 0));
            }
            open(current);
        }
        RowBatch batch = new RowBatch(current.splitId(), arity, batchBytes);
        while (batch.count() < MAX_BATCH_ROWS && batch.sizeInBytes() < MAX_BATCH_BYTES) {
            if (!reader.next() || !opener.tryFetch()) {
                return done(batch);
            }
            batch.add(reader.row());
        }
        batchBytes = Math.max(MIN_BATCH_BYTES, batch.sizeInBytes());
        return batch;
    }

    private RowBatch done(RowBatch batch) {
        closeReader();
        current = null;
        return batch.markFinished();
    }

    private void open(WeirSplit split) {
        reader = opener.open(split);
        if (split.recordsToSkip() > 0) {
            LOG.info(
                    "Resuming Weir split {} after the {} rows emitted before the restore",
                    split.splitId(),
                    split.recordsToSkip());
        }
        // Reading a split is deterministic (immutable files, a stable merge), so the rows emitted
        // before a restore are exactly the first ones.
        for (long i = 0; i < split.recordsToSkip(); i++) {
            if (!reader.next()) {
                closeReader();
                throw new IllegalStateException(
                        "Cannot resume Weir split "
                                + split.splitId()
                                + " of table "
                                + opener.location()
                                + ": it has "
                                + i
                                + " rows, but "
                                + split.recordsToSkip()
                                + " were emitted before the restore");
            }
        }
    }

    @Override
    public void handleSplitsChanges(SplitsChange<WeirSplit> change) {
        if (!(change instanceof SplitsAddition)) {
            throw new UnsupportedOperationException(
                    "Unsupported split change " + change.getClass().getSimpleName());
        }
        for (WeirSplit split : change.splits()) {
            queue.add(new Queued(split, arrivals++));
        }
    }

    @Override
    public void wakeUp() {
        // fetch() never blocks waiting for data
    }

    @Override
    public void close() {
        closeReader();
    }

    private void closeReader() {
        if (reader != null) {
            RowReader r = reader;
            reader = null;
            r.close();
        }
    }
}
