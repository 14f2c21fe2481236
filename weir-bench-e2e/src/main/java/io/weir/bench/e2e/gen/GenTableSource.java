package io.weir.bench.e2e.gen;

import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * A bounded scan of a workload's rows: Flink's FLIP-27 {@link DataGeneratorSource}, unthrottled.
 */
final class GenTableSource implements ScanTableSource {
    private final Workload workload;
    private final long rows;
    private final long keys;
    private final boolean uniqueKeys;
    private final RowType rowType;

    GenTableSource(Workload workload, long rows, long keys, boolean uniqueKeys, RowType rowType) {
        this.workload = workload;
        this.rows = rows;
        this.keys = keys;
        this.uniqueKeys = uniqueKeys;
        this.rowType = rowType;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        // The three-argument constructor: no rate limit (datagen's 'rows-per-second' = 999999999).
        return SourceProvider.of(
                new DataGeneratorSource<RowData>(
                        new RowGenerator(workload, rows, keys, uniqueKeys),
                        rows,
                        InternalTypeInfo.of(rowType)));
    }

    @Override
    public DynamicTableSource copy() {
        return new GenTableSource(workload, rows, keys, uniqueKeys, rowType);
    }

    @Override
    public String asSummaryString() {
        return "weir-bench-gen(" + workload.id() + ", " + rows + " rows)";
    }
}
