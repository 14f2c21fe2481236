package io.weir.flink.catalog.system;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;

/** Hands the pending split(s) to the readers that ask, then tells each asking reader: no more. */
final class SystemRowsEnumerator
        implements SplitEnumerator<SystemRowsSplit, List<SystemRowsSplit>> {
    private final SplitEnumeratorContext<SystemRowsSplit> context;
    private final Deque<SystemRowsSplit> pending;

    SystemRowsEnumerator(
            SplitEnumeratorContext<SystemRowsSplit> context, Collection<SystemRowsSplit> pending) {
        this.context = context;
        this.pending = new ArrayDeque<>(pending);
    }

    @Override
    public void start() {}

    @Override
    public void handleSplitRequest(int subtask, String hostname) {
        SystemRowsSplit split = pending.poll();
        if (split != null) {
            context.assignSplit(split, subtask);
        } else {
            context.signalNoMoreSplits(subtask);
        }
    }

    @Override
    public void addSplitsBack(List<SystemRowsSplit> splits, int subtask) {
        pending.addAll(splits);
    }

    @Override
    public void addReader(int subtask) {}

    @Override
    public List<SystemRowsSplit> snapshotState(long checkpointId) {
        return new ArrayList<>(pending);
    }

    @Override
    public void close() {}
}
