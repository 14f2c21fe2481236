package io.weir.flink.lookup;

import io.weir.FileGroupId;
import io.weir.ScanTask;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.TableScan;
import io.weir.data.BinaryRow;
import io.weir.data.RowReader;
import io.weir.exceptions.MissingFileException;

import org.apache.flink.table.data.RowData;

import java.io.Closeable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * One subtask's local copy of a dimension table: a {@link LookupIndex} per loaded file group, as of
 * one snapshot. When the join key holds the primary key, a key names one bucket and only the file
 * groups of the buckets that the subtask's keys hash to are loaded, each on the first lookup of a
 * key in it; otherwise every file group is loaded at the start.
 *
 * <p>{@link #refresh} moves to the latest snapshot: loaded groups whose files changed are rebuilt
 * from the new snapshot's merged rows (so updated and deleted keys are right), groups that are gone
 * are dropped, new groups of loaded buckets are loaded. A change of the bucket count (a rescale)
 * drops everything.
 */
final class LocalTable implements Closeable {
    private final Table table;
    private final List<String> columns;
    private final LookupKeys keys;
    private final Path dir;
    private final int arity;

    private final Map<FileGroupId, Loaded> loaded = new HashMap<>();
    private Map<FileGroupId, ScanTask> planned = Map.of();
    private TableScan scan;
    private long snapshotId = -1;
    private int buckets;
    private boolean[] bucketLoaded = new boolean[0];
    private LookupIndex[][] byBucket = new LookupIndex[0][];
    private LookupIndex[] all = new LookupIndex[0];
    private long files;
    private long groupLoads;

    private record Loaded(ScanTask task, LookupIndex index) {}

    /**
     * @param columns the columns of the rows the lookup returns
     * @param dir a directory for the index files, owned by this table
     */
    LocalTable(Table table, List<String> columns, LookupKeys keys, Path dir) {
        this.table = table;
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
        TableScan next = table.newScan().select(columns);
        Map<FileGroupId, ScanTask> tasks = new HashMap<>();
        if (snapshot.id() > 0) {
            next = next.useSnapshot(snapshot.id());
            for (ScanTask task : next.plan()) {
                tasks.put(task.fileGroup(), task);
            }
        }
        int n = table.metadata(snapshot.schemaId()).options().bucket();
        if (n != buckets) {
            dropAll();
            buckets = n;
            bucketLoaded = new boolean[n];
        }
        Iterator<Map.Entry<FileGroupId, Loaded>> it = loaded.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<FileGroupId, Loaded> e = it.next();
            ScanTask task = tasks.get(e.getKey());
            if (task == null || !task.files().equals(e.getValue().task().files())) {
                e.getValue().index().close();
                it.remove();
            }
        }
        for (ScanTask task : tasks.values()) {
            if (!loaded.containsKey(task.fileGroup()) && wanted(task.fileGroup().bucket())) {
                loaded.put(task.fileGroup(), load(next, task));
            }
        }
        scan = next;
        planned = tasks;
        snapshotId = snapshot.id();
        index();
    }

    private boolean wanted(int bucket) {
        return !keys.byBucket() || bucketLoaded[bucket];
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
        LookupIndex[] candidates;
        if (keys.byBucket()) {
            int bucket = keys.bucket(key, buckets);
            if (!bucketLoaded[bucket] && !loadBucket(bucket, retried)) {
                return find(keyRow, true);
            }
            candidates = byBucket[bucket];
        } else {
            candidates = all;
        }
        List<RowData> out = null;
        for (LookupIndex index : candidates) {
            out = index.find(key, hash, out);
        }
        return out == null ? List.of() : out;
    }

    /**
     * Loads the file groups of a bucket. If the snapshot's files are gone (expired: compacted and
     * cleaned since it was loaded), moves to the latest snapshot instead and returns false: the
     * caller starts over, as the bucket count may have changed.
     */
    private boolean loadBucket(int bucket, boolean retried) {
        try {
            for (ScanTask task : planned.values()) {
                if (task.fileGroup().bucket() == bucket && !loaded.containsKey(task.fileGroup())) {
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
        bucketLoaded[bucket] = true;
        return true;
    }

    private Loaded load(TableScan scan, ScanTask task) {
        Path file = dir.resolve("group-" + (++files) + ".idx");
        groupLoads++;
        try (LookupIndex.Builder builder = LookupIndex.builder(file, arity);
                RowReader rows = scan.open(task)) {
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
        List<LookupIndex> every = new ArrayList<>();
        List<List<LookupIndex>> perBucket = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            perBucket.add(new ArrayList<>());
        }
        for (Loaded l : loaded.values()) {
            every.add(l.index());
            int b = l.task().fileGroup().bucket();
            if (b < buckets) {
                perBucket.get(b).add(l.index());
            }
        }
        all = every.toArray(new LookupIndex[0]);
        byBucket = new LookupIndex[buckets][];
        for (int b = 0; b < buckets; b++) {
            byBucket[b] = perBucket.get(b).toArray(new LookupIndex[0]);
        }
    }

    private void dropAll() {
        for (Loaded l : loaded.values()) {
            l.index().close();
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
        return loaded.values().stream().mapToLong(l -> l.index().entries()).sum();
    }

    /** Bytes of the index files now. */
    long indexBytes() {
        return loaded.values().stream().mapToLong(l -> l.index().sizeInBytes()).sum();
    }

    @Override
    public void close() {
        dropAll();
        index();
    }
}
