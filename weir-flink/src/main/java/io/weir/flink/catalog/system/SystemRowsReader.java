package io.weir.flink.catalog.system;

import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.FileIOLoader;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.table.data.RowData;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Reads system-table splits: loads the table, computes the rows, emits them. The rows are few (one
 * per commit or per live file), so they are computed at once. Runs on the task's mailbox thread.
 */
final class SystemRowsReader implements SourceReader<RowData, SystemRowsSplit> {
    private final SourceReaderContext context;
    private final FileIOLoader io;
    private final Deque<SystemRowsSplit> splits = new ArrayDeque<>();
    private SystemRowsSplit current;
    private Iterator<RowData> rows;
    private long emitted;
    private boolean noMoreSplits;
    private CompletableFuture<Void> available = new CompletableFuture<>();

    SystemRowsReader(SourceReaderContext context, FileIOLoader io) {
        this.context = context;
        this.io = io;
    }

    @Override
    public void start() {
        context.sendSplitRequest();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<RowData> output) {
        if (current == null) {
            SystemRowsSplit next = splits.poll();
            if (next == null) {
                if (noMoreSplits) {
                    return InputStatus.END_OF_INPUT;
                }
                if (available.isDone()) {
                    available = new CompletableFuture<>();
                }
                return InputStatus.NOTHING_AVAILABLE;
            }
            open(next);
        }
        if (rows.hasNext()) {
            output.collect(rows.next());
            emitted++;
        } else {
            current = null;
            rows = null;
            context.sendSplitRequest();
        }
        return InputStatus.MORE_AVAILABLE;
    }

    private void open(SystemRowsSplit split) {
        Table table = Tables.load(io.get(), split.location());
        long snapshotId = SystemTableOptions.snapshotId(table, split.name(), split.options());
        List<RowData> all = split.kind().rows(new SystemScan(table, snapshotId));
        current = split;
        emitted = Math.min(split.emitted(), all.size());
        rows = all.subList((int) emitted, all.size()).iterator();
    }

    @Override
    public List<SystemRowsSplit> snapshotState(long checkpointId) {
        List<SystemRowsSplit> state = new ArrayList<>();
        if (current != null) {
            state.add(current.withEmitted(emitted));
        }
        state.addAll(splits);
        return state;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return available;
    }

    @Override
    public void addSplits(List<SystemRowsSplit> newSplits) {
        splits.addAll(newSplits);
        available.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        available.complete(null);
    }

    @Override
    public void close() {}
}
