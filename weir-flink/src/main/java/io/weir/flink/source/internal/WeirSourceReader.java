package io.weir.flink.source.internal;

import io.weir.ChangeTask;
import io.weir.DataFile;
import io.weir.flink.source.WeirSplit;

import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads the splits the enumerator hands out, asking for the next one when a split is done. A
 * split's state counts its emitted rows, so a restore resumes after them (exactly once). It tells
 * the enumerator which snapshots its splits read ({@link ReaderHoldsEvent}), for the source's
 * lease.
 */
public final class WeirSourceReader
        extends SingleThreadMultiplexSourceReaderBase<
                BinaryRowData, RowData, WeirSplit, WeirSplitState> {

    public WeirSourceReader(ReadSpec spec, int arity, SourceReaderContext context) {
        this(new SplitOpener(spec), arity, context);
    }

    private WeirSourceReader(SplitOpener opener, int arity, SourceReaderContext context) {
        super(
                () -> new WeirSplitReader(opener, arity),
                (row, output, state) -> {
                    output.collect(row);
                    state.emitted();
                },
                context.getConfiguration(),
                context);
        // FLIP-33: Flink counts numRecordsIn (SourceReaderBase) and registers
        // currentEmitEventTimeLag; Weir adds what only the source knows.
        context.metricGroup().setPendingRecordsGauge(() -> pendingRecords);
        context.metricGroup()
                .gauge("currentFetchEventTimeLag", (Gauge<Long>) opener::fetchLagMillis);
    }

    /** The oldest commit each held split reads, by split id. Task thread only. */
    private final Map<String, Long> held = new HashMap<>();

    /** Records in the files of each held split, by split id. Task thread only. */
    private final Map<String, Long> records = new HashMap<>();

    /** The sum of {@link #records}: written by the task thread, read by a metric reporter. */
    private volatile long pendingRecords;

    private long received;
    private boolean started;

    @Override
    public void addSplits(List<WeirSplit> splits) {
        for (WeirSplit split : splits) {
            held.put(split.splitId(), ReadFloors.of(split));
            long n = Math.max(0, recordsIn(split) - split.recordsToSkip());
            records.put(split.splitId(), n);
            pendingRecords += n;
        }
        if (started) {
            received += splits.size(); // restored splits come before start()
        }
        super.addSplits(splits);
    }

    @Override
    public void start() {
        super.start();
        started = true;
        reportHeld();
        // Restored splits are read first; ask for more only when they are done.
        if (getNumberOfCurrentlyAssignedSplits() == 0) {
            context.sendSplitRequest();
        }
    }

    @Override
    protected void onSplitFinished(Map<String, WeirSplitState> finished) {
        for (String id : finished.keySet()) {
            held.remove(id);
            Long n = records.remove(id);
            if (n != null) {
                pendingRecords -= n;
            }
        }
        reportHeld();
        context.sendSplitRequest();
    }

    private void reportHeld() {
        long oldest =
                held.values().stream().mapToLong(Long::longValue).min().orElse(ReadFloors.NONE);
        context.sendSourceEventToCoordinator(new ReaderHoldsEvent(received, oldest));
    }

    /**
     * The records in the files a split reads (for a change split, in the files added since its
     * start): an upper bound of the rows it emits, since merging folds updates of one key and a
     * log's deletes and retractions are counted too.
     */
    static long recordsIn(WeirSplit split) {
        if (split.isSnapshot()) {
            return split.scanTask().files().stream().mapToLong(DataFile::recordCount).sum();
        }
        ChangeTask task = split.changeTask();
        Set<String> before =
                task.filesBefore().stream().map(DataFile::path).collect(Collectors.toSet());
        return task.filesAfter().stream()
                .filter(f -> !before.contains(f.path()))
                .mapToLong(DataFile::recordCount)
                .sum();
    }

    @Override
    protected WeirSplitState initializedState(WeirSplit split) {
        return new WeirSplitState(split);
    }

    @Override
    protected WeirSplit toSplitType(String splitId, WeirSplitState state) {
        return state.toSplit();
    }
}
