package io.weir.scan;

import io.weir.BucketLayout;
import io.weir.ChangeTask;
import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.IncrementalScan;
import io.weir.Partition;
import io.weir.Rescale;
import io.weir.Schema;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.data.KeyFields;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.data.RowReaders;
import io.weir.exceptions.ValidationException;
import io.weir.expressions.BoundExpression;
import io.weir.expressions.Expression;
import io.weir.expressions.Expressions;
import io.weir.read.ChangeDiffReader;
import io.weir.read.FileGroupReader;
import io.weir.read.FilterProjectReader;
import io.weir.types.RowType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@link IncrementalScan}. For keyed tables a task holds a file group's files at both ends and
 * the reader diffs the two merged states. For append-only tables a task holds the files whose rows
 * were removed ({@code filesBefore}, read as -D) and added ({@code filesAfter}, read as +I) by the
 * appends and overwrites in the range; compactions in the range are skipped, their inputs read
 * instead.
 */
public final class IncrementalScanImpl implements IncrementalScan {
    private final Table table;
    private long from = -1;
    private long to = -1;
    private Integer schemaId;
    private List<String> columns;
    private Expression filter = Expressions.alwaysTrue();
    private TableMetadata readAs;

    public IncrementalScanImpl(Table table) {
        this.table = table;
    }

    @Override
    public IncrementalScan between(long fromExclusive, long toInclusive) {
        ValidationException.check(
                fromExclusive >= 0 && fromExclusive <= toInclusive,
                "Invalid incremental range (%s, %s] of table %s: the start must be >= 0 and at"
                        + " most the end",
                fromExclusive,
                toInclusive,
                table.location());
        this.from = fromExclusive;
        this.to = toInclusive;
        return this;
    }

    @Override
    public IncrementalScan useSchema(int id) {
        table.metadata(id); // fails for an unknown version
        this.schemaId = id;
        this.readAs = null;
        return this;
    }

    @Override
    public synchronized TableMetadata metadata() {
        if (readAs == null) {
            readAs = schemaId != null ? table.metadata(schemaId) : table.metadata();
        }
        return readAs;
    }

    private Schema schema() {
        return metadata().schema();
    }

    @Override
    public IncrementalScan select(List<String> newColumns) {
        TableScanImpl.projection(schema().rowType(), newColumns, table.location());
        this.columns = List.copyOf(newColumns);
        return this;
    }

    @Override
    public IncrementalScan filter(Expression newFilter) {
        Expression combined = Expressions.and(filter, newFilter);
        combined.bind(schema().rowType());
        this.filter = combined;
        return this;
    }

    @Override
    public RowType readType() {
        RowType rowType = schema().rowType();
        int[] positions = TableScanImpl.projection(rowType, columns, table.location());
        return positions == null ? rowType : rowType.project(positions);
    }

    @Override
    public List<ChangeTask> plan() {
        ValidationException.check(
                to >= 0,
                "Cannot plan an incremental scan of table %s: call between() first",
                table.location());
        Snapshot start = table.snapshot(from);
        Snapshot end = table.snapshot(to);
        // Changes are computed file group by file group: both ends need one bucket layout per
        // partition. A rescale commit alone changes no row.
        if (schema().hasPrimaryKey()) {
            String rescaled = rescaledBetween(start, end);
            if (rescaled != null) {
                if (to == from + 1
                        && table.commit(to).properties().containsKey(Rescale.COMMIT_PROPERTY)) {
                    return List.of();
                }
                throw new ValidationException(
                        String.format(
                                "Cannot read the changes of table %s between commits %s and %s: %s"
                                        + " in between; read the changes before and after the"
                                        + " rescale commit apart",
                                table.location(), from, to, rescaled));
            }
        }
        BoundExpression bound = filter.bind(schema().rowType());
        List<ChangeTask> tasks =
                schema().hasPrimaryKey() ? planKeyed(start, end) : planAppendOnly(start, end);
        PartitionPruner partitions = new PartitionPruner(metadata(), bound);
        return tasks.stream()
                .filter(t -> partitions.mightMatch(t.fileGroup().partition()))
                .toList();
    }

    /**
     * How the bucket layout changed from {@code start} to {@code end}: "it was rescaled from a to b
     * buckets" (the option) or "partition p was rescaled ...", or null if no partition that has
     * files at both ends changed its count.
     */
    private String rescaledBetween(Snapshot start, Snapshot end) {
        int optionBefore = table.metadata(start.schemaId()).options().bucket();
        int optionAfter = table.metadata(end.schemaId()).options().bucket();
        if (optionBefore != optionAfter) {
            return String.format(
                    "it was rescaled from %s to %s buckets", optionBefore, optionAfter);
        }
        Map<Partition, Integer> before = BucketLayout.ofPartitions(start, table::metadata);
        Map<Partition, Integer> after = BucketLayout.ofPartitions(end, table::metadata);
        for (Map.Entry<Partition, Integer> e : before.entrySet()) {
            Integer now = after.get(e.getKey());
            if (now != null && !now.equals(e.getValue())) {
                return String.format(
                        "partition %s was rescaled from %s to %s buckets",
                        e.getKey().spec(schema().partitionKeys()), e.getValue(), now);
            }
        }
        return null;
    }

    private List<ChangeTask> planKeyed(Snapshot start, Snapshot end) {
        Set<FileGroupId> groups = new TreeSet<>(start.fileGroups().keySet());
        groups.addAll(end.fileGroups().keySet());
        List<ChangeTask> tasks = new ArrayList<>();
        for (FileGroupId g : groups) {
            List<DataFile> before = start.fileGroups().getOrDefault(g, List.of());
            List<DataFile> after = end.fileGroups().getOrDefault(g, List.of());
            if (!paths(before).equals(paths(after))) {
                tasks.add(new ChangeTask(start.id(), end.id(), g, before, after));
            }
        }
        return tasks;
    }

    /**
     * Net appended and removed files. A compaction's outputs stand for its inputs: when an
     * overwrite later removes them, the removal is traced back to the inputs, cancelling rows
     * appended in the range and removing rows that existed at the start.
     */
    private List<ChangeTask> planAppendOnly(Snapshot start, Snapshot end) {
        Map<String, DataFile> atStart = new LinkedHashMap<>();
        start.files().forEach(f -> atStart.put(f.path(), f));
        Map<String, DataFile> added = new LinkedHashMap<>();
        Map<String, DataFile> removed = new LinkedHashMap<>();
        Map<String, List<String>> compactedFrom = new LinkedHashMap<>();
        Set<String> resolved = new HashSet<>();
        // From the end down: a rollback in the range ends the walk before the commits it
        // abandoned, which may be damaged; the change is then the difference of the file sets.
        List<Commit> commits = new ArrayList<>();
        for (long id = end.id(); id > start.id(); id--) {
            Commit commit = table.commit(id);
            if (commit.kind() == CommitKind.ROLLBACK) {
                return planFileSetDiff(start, end);
            }
            commits.add(commit);
        }
        Collections.reverse(commits);
        for (Commit commit : commits) {
            if (commit.kind() == CommitKind.COMPACT) {
                Map<FileGroupId, List<String>> inputs = new LinkedHashMap<>();
                for (String path : commit.removed()) {
                    DataFile f = find(path, added, atStart);
                    inputs.computeIfAbsent(f == null ? null : f.fileGroup(), k -> new ArrayList<>())
                            .add(path);
                }
                for (DataFile f : commit.added()) {
                    compactedFrom.put(f.path(), inputs.getOrDefault(f.fileGroup(), List.of()));
                    atStart.putIfAbsent(f.path(), f);
                }
                continue;
            }
            for (String path : commit.removed()) {
                remove(path, added, removed, atStart, compactedFrom, resolved);
            }
            commit.added().forEach(f -> added.put(f.path(), f));
        }
        Map<FileGroupId, List<List<DataFile>>> byGroup = new LinkedHashMap<>();
        removed.values().forEach(f -> files(byGroup, f.fileGroup()).get(0).add(f));
        added.values().forEach(f -> files(byGroup, f.fileGroup()).get(1).add(f));
        List<ChangeTask> tasks = new ArrayList<>();
        byGroup.forEach(
                (g, lists) ->
                        tasks.add(
                                new ChangeTask(
                                        start.id(), end.id(), g, lists.get(0), lists.get(1))));
        return tasks;
    }

    /** Files live at the start only, read as -D, and at the end only, read as +I. */
    private static List<ChangeTask> planFileSetDiff(Snapshot start, Snapshot end) {
        Set<String> atEnd = paths(end.files());
        Set<String> atStart = paths(start.files());
        Map<FileGroupId, List<List<DataFile>>> byGroup = new LinkedHashMap<>();
        start.files().stream()
                .filter(f -> !atEnd.contains(f.path()))
                .forEach(f -> files(byGroup, f.fileGroup()).get(0).add(f));
        end.files().stream()
                .filter(f -> !atStart.contains(f.path()))
                .forEach(f -> files(byGroup, f.fileGroup()).get(1).add(f));
        List<ChangeTask> tasks = new ArrayList<>();
        byGroup.forEach(
                (g, lists) ->
                        tasks.add(
                                new ChangeTask(
                                        start.id(), end.id(), g, lists.get(0), lists.get(1))));
        return tasks;
    }

    private static DataFile find(
            String path, Map<String, DataFile> added, Map<String, DataFile> atStart) {
        DataFile f = added.get(path);
        return f != null ? f : atStart.get(path);
    }

    private static void remove(
            String path,
            Map<String, DataFile> added,
            Map<String, DataFile> removed,
            Map<String, DataFile> atStart,
            Map<String, List<String>> compactedFrom,
            Set<String> resolved) {
        if (!resolved.add(path)) {
            return;
        }
        if (added.remove(path) != null) {
            return; // appended and removed within the range: no net change
        }
        List<String> inputs = compactedFrom.get(path);
        if (inputs != null) {
            for (String input : inputs) {
                remove(input, added, removed, atStart, compactedFrom, resolved);
            }
            return;
        }
        DataFile f = atStart.get(path);
        if (f != null) {
            removed.put(path, f);
        }
    }

    private static List<List<DataFile>> files(
            Map<FileGroupId, List<List<DataFile>>> map, FileGroupId g) {
        return map.computeIfAbsent(g, k -> List.of(new ArrayList<>(), new ArrayList<>()));
    }

    private static Set<String> paths(List<DataFile> files) {
        Set<String> paths = new LinkedHashSet<>();
        files.forEach(f -> paths.add(f.path()));
        return paths;
    }

    @Override
    public RowReader open(ChangeTask task) {
        TableMetadata metadata = metadata();
        Schema schema = metadata.schema();
        RowType rowType = schema.rowType();
        BoundExpression bound = filter.bind(rowType);
        int[] projection = TableScanImpl.projection(rowType, columns, table.location());
        if (schema.hasPrimaryKey()) {
            RowReader before = FileGroupReader.open(table, metadata, task.filesBefore(), false);
            RowReader after;
            try {
                after = FileGroupReader.open(table, metadata, task.filesAfter(), false);
            } catch (RuntimeException e) {
                before.close();
                throw e;
            }
            KeyFields key = KeyFields.of(rowType, schema.primaryKeyPositions());
            return new ChangeDiffReader(before, after, rowType, key, bound, projection);
        }
        record Part(DataFile file, RowKind kind) {}
        List<Part> parts = new ArrayList<>();
        task.filesBefore().forEach(f -> parts.add(new Part(f, RowKind.DELETE)));
        task.filesAfter().forEach(f -> parts.add(new Part(f, RowKind.INSERT)));
        // Opened one at a time as the concatenation reaches them.
        return RowReaders.concat(
                parts,
                p ->
                        new FilterProjectReader(
                                FileGroupReader.open(table, metadata, List.of(p.file()), false),
                                rowType,
                                bound,
                                projection,
                                p.kind()));
    }
}
