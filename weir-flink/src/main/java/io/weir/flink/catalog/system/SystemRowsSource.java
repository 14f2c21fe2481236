package io.weir.flink.catalog.system;

import io.weir.flink.FileIOLoader;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;

import java.util.List;
import java.util.Map;

/** The bounded FLIP-27 source of a {@link SystemTable}'s rows: one split, read at run time. */
final class SystemRowsSource implements Source<RowData, SystemRowsSplit, List<SystemRowsSplit>> {
    private static final long serialVersionUID = 1L;

    private final SystemTable kind;
    private final String name;
    private final String location;
    private final Map<String, String> options;
    private final FileIOLoader io;

    SystemRowsSource(
            SystemTable kind,
            String name,
            String location,
            Map<String, String> options,
            FileIOLoader io) {
        this.kind = kind;
        this.name = name;
        this.location = location;
        this.options = Map.copyOf(options);
        this.io = io;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SplitEnumerator<SystemRowsSplit, List<SystemRowsSplit>> createEnumerator(
            SplitEnumeratorContext<SystemRowsSplit> context) {
        return new SystemRowsEnumerator(
                context, List.of(new SystemRowsSplit(kind, name, location, options, 0)));
    }

    @Override
    public SplitEnumerator<SystemRowsSplit, List<SystemRowsSplit>> restoreEnumerator(
            SplitEnumeratorContext<SystemRowsSplit> context, List<SystemRowsSplit> pending) {
        return new SystemRowsEnumerator(context, pending);
    }

    @Override
    public SimpleVersionedSerializer<SystemRowsSplit> getSplitSerializer() {
        return SystemRowsSplitSerializer.SPLIT;
    }

    @Override
    public SimpleVersionedSerializer<List<SystemRowsSplit>> getEnumeratorCheckpointSerializer() {
        return SystemRowsSplitSerializer.PENDING;
    }

    @Override
    public SourceReader<RowData, SystemRowsSplit> createReader(SourceReaderContext context) {
        return new SystemRowsReader(context, io);
    }
}
