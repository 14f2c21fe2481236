package io.weir.scan;

import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.ScanTask;
import io.weir.Schema;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.TableScan;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.exceptions.ValidationException;
import io.weir.expressions.BoundExpression;
import io.weir.expressions.Conjuncts;
import io.weir.expressions.Expression;
import io.weir.expressions.Expressions;
import io.weir.read.FileGroupReader;
import io.weir.read.FilterProjectReader;
import io.weir.read.SchemaMappings;
import io.weir.types.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** An immutable {@link TableScan}: each setter returns a new scan. */
public final class TableScanImpl implements TableScan {
    private final Table table;
    private final Long commitId;
    private final Long asOfMillis;
    private final Integer schemaId;
    private final List<String> columns;
    private final Expression filter;
    private Snapshot snapshot;
    private TableMetadata readAs;
    private SchemaMappings mappings;

    public TableScanImpl(Table table) {
        this(table, null, null, null, null, Expressions.alwaysTrue());
    }

    private TableScanImpl(
            Table table,
            Long commitId,
            Long asOfMillis,
            Integer schemaId,
            List<String> columns,
            Expression filter) {
        this.table = table;
        this.commitId = commitId;
        this.asOfMillis = asOfMillis;
        this.schemaId = schemaId;
        this.columns = columns;
        this.filter = filter;
    }

    @Override
    public TableScan useSnapshot(long id) {
        return new TableScanImpl(table, id, null, schemaId, columns, filter);
    }

    @Override
    public TableScan asOfTime(long timestampMillis) {
        return new TableScanImpl(table, null, timestampMillis, schemaId, columns, filter);
    }

    @Override
    public TableScan useSchema(int id) {
        table.metadata(id); // fails for an unknown version
        return new TableScanImpl(table, commitId, asOfMillis, id, columns, filter);
    }

    @Override
    public TableScan select(List<String> newColumns) {
        TableScanImpl scan =
                new TableScanImpl(
                        table, commitId, asOfMillis, schemaId, List.copyOf(newColumns), filter);
        scan.readType(); // fails naming an unknown column
        return scan;
    }

    @Override
    public TableScan filter(Expression newFilter) {
        TableScanImpl scan =
                new TableScanImpl(
                        table,
                        commitId,
                        asOfMillis,
                        schemaId,
                        columns,
                        Expressions.and(filter, newFilter));
        scan.filter.bind(scan.schema().rowType()); // fails naming an unknown column
        return scan;
    }

    @Override
    public synchronized TableMetadata metadata() {
        if (readAs == null) {
            readAs = table.metadata(schemaId != null ? schemaId : snapshot().schemaId());
            mappings = new SchemaMappings(table, readAs);
        }
        return readAs;
    }

    private Schema schema() {
        return metadata().schema();
    }

    @Override
    public synchronized Snapshot snapshot() {
        if (snapshot == null) {
            if (commitId != null) {
                snapshot = table.snapshot(commitId);
            } else if (asOfMillis != null) {
                snapshot = table.snapshotAsOf(asOfMillis);
            } else {
                snapshot = table.currentSnapshot();
            }
        }
        return snapshot;
    }

    @Override
    public RowType readType() {
        RowType rowType = schema().rowType();
        int[] positions = projection(rowType, columns, table.location());
        return positions == null ? rowType : rowType.project(positions);
    }

    @Override
    public List<ScanTask> plan() {
        Schema schema = schema();
        RowType rowType = schema.rowType();
        BoundExpression all = filter.bind(rowType);
        if (all.isAlwaysFalse()) {
            return List.of();
        }
        BoundExpression onKey =
                schema.hasPrimaryKey()
                        ? Conjuncts.split(filter, schema.primaryKey()).onColumns().bind(rowType)
                        : all;
        Snapshot s = snapshot();
        PartitionPruner partitions = new PartitionPruner(metadata(), all);
        List<ScanTask> tasks = new ArrayList<>();
        for (Map.Entry<FileGroupId, List<DataFile>> group : s.fileGroups().entrySet()) {
            if (!partitions.mightMatch(group.getKey().partition())) {
                continue;
            }
            List<DataFile> kept = new ArrayList<>();
            boolean anyMightMatch = false;
            for (DataFile f : group.getValue()) {
                if (!mightMatch(f, onKey, schema)) {
                    continue;
                }
                kept.add(f);
                anyMightMatch |=
                        f.kind() != FileKind.BASE
                                || all.mightMatch(mappings.statistics(f), f.recordCount());
            }
            // For keyed tables a file's statistics may only drop the whole group: a file that
            // cannot match may still hold the newer version of a row that another file matches.
            if (!kept.isEmpty() && anyMightMatch) {
                tasks.add(new ScanTask(s.id(), group.getKey(), kept));
            }
        }
        return tasks;
    }

    private boolean mightMatch(DataFile f, BoundExpression filter, Schema schema) {
        if (schema.hasPrimaryKey()
                && !filter.mightMatchKeyRange(f.minKey(), f.maxKey(), schema.primaryKey())) {
            return false;
        }
        return f.kind() != FileKind.BASE
                || filter.mightMatch(mappings.statistics(f), f.recordCount());
    }

    @Override
    public RowReader open(ScanTask task) {
        RowType rowType = schema().rowType();
        int[] projection = projection(rowType, columns, table.location());
        BoundExpression bound = filter.bind(rowType);
        int[] read = projection != null ? projection : IntStream.range(0, rowType.size()).toArray();
        if (bound.isAlwaysTrue() && IntStream.of(read).distinct().count() == read.length) {
            // A group of base files from one compaction is read without a merge, and only the
            // selected columns.
            RowReader base = FileGroupReader.openBaseOnly(table, metadata(), task.files(), read);
            if (base != null) {
                return new FilterProjectReader(
                        base, rowType.project(read), null, null, RowKind.INSERT);
            }
        }
        RowReader merged = FileGroupReader.open(table, metadata(), task.files(), false);
        return new FilterProjectReader(merged, rowType, bound, projection, RowKind.INSERT);
    }

    @Override
    public long count(ScanTask task) {
        List<DataFile> files = task.files();
        if (filter.bind(schema().rowType()).isAlwaysTrue() && FileGroupReader.isBaseOnly(files)) {
            return task.recordCount(); // base files of one sequence: live rows, unique keys
        }
        long rows = 0;
        try (RowReader reader = open(task)) {
            while (reader.next()) {
                rows++;
            }
        }
        return rows;
    }

    /** Positions of the selected columns, or null for all; unknown columns fail naming them. */
    static int[] projection(RowType rowType, List<String> columns, String location) {
        if (columns == null) {
            return null;
        }
        int[] positions = new int[columns.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = rowType.indexOf(columns.get(i));
            ValidationException.check(
                    positions[i] >= 0,
                    "Cannot select column '%s' of table %s: no such column (columns: %s)",
                    columns.get(i),
                    location,
                    rowType.names());
        }
        return positions;
    }
}
