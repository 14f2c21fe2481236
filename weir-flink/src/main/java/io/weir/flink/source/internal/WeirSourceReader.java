package io.weir.flink.source.internal;

import io.weir.flink.source.WeirSplit;

import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    }

    /** The oldest commit each held split reads, by split id. Task thread only. */
    private final Map<String, Long> held = new HashMap<>();

    private long received;
    private boolean started;

    @Override
    public void addSplits(List<WeirSplit> splits) {
        for (WeirSplit split : splits) {
            held.put(split.splitId(), ReadFloors.of(split));
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
        finished.keySet().forEach(held::remove);
        reportHeld();
        context.sendSplitRequest();
    }

    private void reportHeld() {
        long oldest =
                held.values().stream().mapToLong(Long::longValue).min().orElse(ReadFloors.NONE);
        context.sendSourceEventToCoordinator(new ReaderHoldsEvent(received, oldest));
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
