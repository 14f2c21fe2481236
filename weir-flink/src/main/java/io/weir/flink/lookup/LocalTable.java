package io.weir.flink.lookup;

import io.weir.BucketLayout;
import io.weir.ChangeTask;
import io.weir.FileGroupId;
import io.weir.IncrementalScan;
import io.weir.Partition;
import io.weir.ScanTask;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.TableScan;
import io.weir.data.BinaryRow;
import io.weir.data.RowReader;
import io.weir.exceptions.MissingFileException;
import io.weir.exceptions.SnapshotExpiredException;

import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

import java.io.Closeable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One subtask's local copy of a dimension table: a {@link LookupIndex} per loaded file group, as of
 * one snapshot. When the join key holds the primary key, a key names one bucket and only the file
 * groups of the buckets that the subtask's keys hash to are loaded, each on the first lookup of a
 * key in it; otherwise every file group is loaded at the start.
 *
 * <p>{@link #refresh} moves to the latest snapshot. Groups that are gone are dropped, new groups of
 * loaded buckets are loaded. For a loaded group whose files changed: when the key holds the primary
 * key (one row per key), the net changes of the new commits (an incremental scan: +I, -U/+U, -D) go
 * to the group's {@link Overlay}, and the group is rebuilt from the new snapshot only when its
 * overlay outgrows a quarter of the group or all overlays together outgrow {@link #OVERLAY_BUDGET};
 * otherwise (or if the changes cannot be read: expired commits) the group is rebuilt from the new
 * snapshot's merged rows. Either way updated and deleted keys are right.
 *
 * <p>Partitions may have different bucket counts (a partition rescaled apart from the table,
 * docs/rescale.md): the groups are indexed by layout, one per count, and a lookup probes, in each
 * layout, the bucket its key hashes to there (one layout, one probe, in the usual case). A change
 * of a partition's count (a rescale) drops everything.
 */
final class LocalTable implements Closeable {
    /** The heap all overlays of a subtask may hold before the largest are folded into rebuilds. */
    static final long OVERLAY_BUDGET = 32L << 20;

    private final Table table;

    private final int schemaId;
    private final List<String> columns;
    private final LookupKeys keys;
    private final Path dir;
    private final int arity;

    private final Map<FileGroupId, Loaded> loaded = new HashMap<>();
    private Map<FileGroupId, ScanTask> planned = Map.of();
    private TableScan scan;
    private long snapshotId = -1;

    /** The bucket count of each partition of the loaded snapshot. */
    private Map<Partition, Integer> counts = Map.of();

    /** One per bucket count of the snapshot's partitions. */
    private Layout[] layouts = new Layout[0];

    private Loaded[] all = new Loaded[0];
    private long files;
    private long groupLoads;

    /** The loaded groups of the partitions that have one bucket count, by bucket. */
    private static final class Layout {
        final int count;
        final boolean[] bucketLoaded;
        Loaded[][] byBucket = new Loaded[0][];

        Layout(int count) {
            this.count = count;
            this.bucketLoaded = new boolean[count];
        }
    }

    /** A loaded file group: its index as of {@code task}'s snapshot or earlier, plus overlay. */
    private static final class Loaded {
        ScanTask task;
        final LookupIndex index;
        final Overlay overlay = new Overlay();

        Loaded(ScanTask task, LookupIndex index) {
            this.task = task;
            this.index = index;
        }
    }

    /**
     * @param columns the columns of the rows the lookup returns
     * @param dir a directory for the index files, owned by this table
     */
    /**
     * @param schemaId the schema version whose columns the lookups return
     */
    LocalTable(Table table, int schemaId, List<String> columns, LookupKeys keys, Path dir) {
        this.table = table;
        this.schemaId = schemaId;
        this.columns = List.copyOf(columns);
        this.keys = keys;
        this.dir = dir;
        this.arity = columns.size();
    }

    /** Moves to the table's latest snapshot, if it is not the one loaded. */
    void refresh() {
        table.refresh();
        Snapshot latest = table.currentSnapshot();
        if (latest.id() != snapshotId) {
            moveTo(latest);
        }
    }

    private void moveTo(Snapshot snapshot) {
        TableScan next = table.newScan().useSchema(schemaId).select(columns);
        Map<FileGroupId, ScanTask> tasks = new HashMap<>();
        if (snapshot.id() > 0) {
            next = next.useSnapshot(snapshot.id());
            for (ScanTask task : next.plan()) {
                tasks.put(task.fileGroup(), task);
            }
        }
        Map<Partition, Integer> nextCounts = BucketLayout.ofPartitions(snapshot, table::metadata);
        if (!sameLayout(nextCounts)) {
            dropAll();
            layouts =
                    new TreeSet<>(nextCounts.values())
                            .stream().map(Layout::new).toArray(Layout[]::new);
        }
        counts = nextCounts;
        List<Loaded> changed = new ArrayList<>();
        Iterator<Map.Entry<FileGroupId, Loaded>> it = loaded.entrySet().iterator();
        while (it.hasNext()) {
            Loaded l = it.next().getValue();
            ScanTask task = tasks.get(l.task.fileGroup());
            if (task == null) {
                l.index.close();
                it.remove();
            } else if (!task.files().equals(l.task.files())) {
                changed.add(l);
            }
        }
        if (!changed.isEmpty()
                && !(keys.byBucket() && applyChanges(changed, snapshot.id(), tasks))) {
            for (Loaded l : changed) {
                rebuild(l, next, tasks.get(l.task.fileGroup()));
            }
        }
        for (ScanTask task : tasks.values()) {
            if (!loaded.containsKey(task.fileGroup()) && wanted(task.fileGroup())) {
                loaded.put(task.fileGroup(), load(next, task));
            }
        }
        scan = next;
        planned = tasks;
        snapshotId = snapshot.id();
        foldOverlays();
        index();
    }

    /**
     * Adds the net changes from the loaded snapshot to snapshot {@code to} to the overlays of the
     * changed groups. Returns false if they cannot be read (the loaded snapshot expired): then the
     * caller rebuilds the groups, which drops their overlays.
     */
    private boolean applyChanges(List<Loaded> changed, long to, Map<FileGroupId, ScanTask> tasks) {
        Map<FileGroupId, Loaded> byGroup = new HashMap<>();
        for (Loaded l : changed) {
            byGroup.put(l.task.fileGroup(), l);
        }
        try {
            IncrementalScan changes =
                    table.newIncrementalScan()
                            .between(snapshotId, to)
                            .useSchema(schemaId)
                            .select(columns);
            for (ChangeTask task : changes.plan()) {
                Loaded l = byGroup.get(task.fileGroup());
                if (l == null) {
                    continue;
                }
                try (RowReader rows = changes.open(task)) {
                    while (rows.next()) {
                        BinaryRow row = rows.row();
                        boolean add = row.rowKind().isAdd();
                        BinaryRow key = keys.keyOf(row);
                        if (key != null) {
                            l.overlay.put(key, LookupIndex.hash(key), add ? row : null);
                        }
                    }
                }
            }
        } catch (SnapshotExpiredException | MissingFileException e) {
            return false;
        }
        for (Loaded l : changed) {
            l.task = tasks.get(l.task.fileGroup());
        }
        return true;
    }

    /** Rebuilds the groups whose overlays grew too large, the largest first. */
    private void foldOverlays() {
        long total = 0;
        List<Loaded> kept = new ArrayList<>();
        for (Loaded l : List.copyOf(loaded.values())) {
            if (l.overlay.size() > l.index.entries() / 4 + 1024) {
                rebuild(l, scan, l.task);
            } else {
                total += l.overlay.bytes();
                kept.add(l);
            }
        }
        kept.sort(Comparator.comparingLong((Loaded l) -> l.overlay.bytes()).reversed());
        for (Loaded l : kept) {
            if (total <= OVERLAY_BUDGET) {
                break;
            }
            total -= l.overlay.bytes();
            rebuild(l, scan, l.task);
        }
    }

    private void rebuild(Loaded old, TableScan from, ScanTask task) {
        old.index.close();
        loaded.put(task.fileGroup(), load(from, task));
    }

    /**
     * Whether the partitions of {@code next} that are loaded now keep their counts, and every count
     * of {@code next} has its layout.
     */
    private boolean sameLayout(Map<Partition, Integer> next) {
        for (Map.Entry<Partition, Integer> e : next.entrySet()) {
            Integer now = counts.get(e.getKey());
            if ((now != null && !now.equals(e.getValue())) || layoutOf(e.getValue()) == null) {
                return false;
            }
        }
        return true;
    }

    private Layout layoutOf(int count) {
        for (Layout l : layouts) {
            if (l.count == count) {
                return l;
            }
        }
        return null;
    }

    private boolean wanted(FileGroupId group) {
        if (!keys.byBucket()) {
            return true;
        }
        Layout layout = layoutOf(counts.get(group.partition()));
        return layout.bucketLoaded[group.bucket()];
    }

    /** The rows under the key of {@code keyRow} (the list is the caller's). */
    List<RowData> find(RowData keyRow) {
        return find(keyRow, false);
    }

    private List<RowData> find(RowData keyRow, boolean retried) {
        BinaryRow key = keys.probe(keyRow);
        if (key == null) {
            return List.of();
        }
        int hash = LookupIndex.hash(key);
        if (!keys.byBucket()) {
            List<RowData> out = find(all, key, hash, null);
            return out == null ? List.of() : out;
        }
        List<RowData> out = null;
        for (Layout layout : layouts) {
            int bucket = keys.bucket(key, layout.count);
            if (!layout.bucketLoaded[bucket] && !loadBucket(layout, bucket, retried)) {
                return find(keyRow, true);
            }
            out = find(layout.byBucket[bucket], key, hash, out);
        }
        return out == null ? List.of() : out;
    }

    /** Adds the rows under {@code key} in {@code candidates} to {@code out} (null: none yet). */
    private List<RowData> find(Loaded[] candidates, BinaryRow key, int hash, List<RowData> out) {
        for (Loaded l : candidates) {
            if (!l.overlay.isEmpty()) {
                byte[] row = l.overlay.get(key, hash);
                if (row != null) {
                    if (row != Overlay.DELETED) {
                        BinaryRowData flink = new BinaryRowData(arity);
                        flink.pointTo(MemorySegmentFactory.wrap(row), 0, row.length);
                        out = out == null ? new ArrayList<>(2) : out;
                        out.add(flink);
                    }
                    continue;
                }
            }
            out = l.index.find(key, hash, out);
        }
        return out;
    }

    /**
     * Loads the file groups of a bucket. If the snapshot's files are gone (expired: compacted and
     * cleaned since it was loaded), moves to the latest snapshot instead and returns false: the
     * caller starts over, as the bucket count may have changed.
     */
    private boolean loadBucket(Layout layout, int bucket, boolean retried) {
        try {
            for (ScanTask task : planned.values()) {
                FileGroupId group = task.fileGroup();
                if (group.bucket() == bucket
                        && counts.get(group.partition()) == layout.count
                        && !loaded.containsKey(group)) {
                    loaded.put(task.fileGroup(), load(scan, task));
                }
            }
        } catch (MissingFileException e) {
            if (retried) {
                throw e;
            }
            refresh();
            return false;
        } finally {
            index();
        }
        layout.bucketLoaded[bucket] = true;
        return true;
    }

    private Loaded load(TableScan from, ScanTask task) {
        Path file = dir.resolve("group-" + (++files) + ".idx");
        groupLoads++;
        try (LookupIndex.Builder builder = LookupIndex.builder(file, arity);
                RowReader rows = from.open(task)) {
            while (rows.next()) {
                BinaryRow row = rows.row();
                BinaryRow key = keys.keyOf(row);
                if (key != null) {
                    builder.add(key, LookupIndex.hash(key), row);
                }
            }
            return new Loaded(task, builder.build());
        }
    }

    /** Rebuilds the arrays that lookups read. */
    private void index() {
        for (Layout layout : layouts) {
            List<List<Loaded>> perBucket = new ArrayList<>();
            for (int b = 0; b < layout.count; b++) {
                perBucket.add(new ArrayList<>());
            }
            for (Loaded l : loaded.values()) {
                FileGroupId group = l.task.fileGroup();
                Integer count = counts.get(group.partition());
                if (count != null && count == layout.count && group.bucket() < layout.count) {
                    perBucket.get(group.bucket()).add(l);
                }
            }
            layout.byBucket = new Loaded[layout.count][];
            for (int b = 0; b < layout.count; b++) {
                layout.byBucket[b] = perBucket.get(b).toArray(new Loaded[0]);
            }
        }
        all = loaded.values().toArray(new Loaded[0]);
    }

    private void dropAll() {
        for (Loaded l : loaded.values()) {
            l.index.close();
        }
        loaded.clear();
    }

    /** The snapshot loaded. */
    long snapshotId() {
        return snapshotId;
    }

    /** File groups loaded now. */
    int loadedGroups() {
        return loaded.size();
    }

    /** File groups of the snapshot. */
    int groups() {
        return planned.size();
    }

    /** Loads of a file group since the start (first loads and rebuilds). */
    long groupLoads() {
        return groupLoads;
    }

    /** Rows indexed now. */
    long rows() {
        return loaded.values().stream().mapToLong(l -> l.index.entries()).sum();
    }

    /** Keys in overlays now. */
    long overlayKeys() {
        return loaded.values().stream().mapToLong(l -> l.overlay.size()).sum();
    }

    /** Bytes of the index files now. */
    long indexBytes() {
        return loaded.values().stream().mapToLong(l -> l.index.sizeInBytes()).sum();
    }

    @Override
    public void close() {
        dropAll();
        index();
    }
}
