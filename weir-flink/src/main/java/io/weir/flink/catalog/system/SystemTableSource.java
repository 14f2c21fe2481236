package io.weir.flink.catalog.system;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;

/**
 * Reads a {@link SystemTable}: a bounded FLIP-27 source of one split, read by one task, that
 * computes the rows from the table's metadata when the query runs (not when it is planned).
 */
public final class SystemTableSource implements ScanTableSource {
    private final SystemTable kind;
    private final String name;
    private final String location;

    SystemTableSource(SystemTable kind, String name, String location) {
        this.kind = kind;
        this.name = name;
        this.location = location;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        return SourceProvider.of(new SystemRowsSource(kind, location), 1);
    }

    @Override
    public DynamicTableSource copy() {
        return new SystemTableSource(kind, name, location);
    }

    @Override
    public String asSummaryString() {
        return "Weir system table " + name;
    }
}
