package io.weir.flink.catalog.system;

import io.weir.flink.FileIOLoader;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;

import java.util.Map;

/**
 * Reads a metadata {@link SystemTable}: a bounded FLIP-27 source of one split, read by one task,
 * that computes the rows from the table's metadata when the query runs (not when it is planned).
 */
public final class SystemTableSource implements ScanTableSource {
    private final SystemTable kind;
    private final String name;
    private final String location;
    private final FileIOLoader io;
    private final Map<String, String> options;

    SystemTableSource(
            SystemTable kind,
            String name,
            String location,
            FileIOLoader io,
            Map<String, String> options) {
        this.kind = kind;
        this.name = name;
        this.location = location;
        this.io = io;
        this.options = options;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        return SourceProvider.of(new SystemRowsSource(kind, name, location, options, io), 1);
    }

    @Override
    public DynamicTableSource copy() {
        return new SystemTableSource(kind, name, location, io, options);
    }

    @Override
    public String asSummaryString() {
        return "Weir system table " + name;
    }
}
