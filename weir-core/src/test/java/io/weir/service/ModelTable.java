package io.weir.service;

import io.weir.Compaction;
import io.weir.DataFile;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A keyed, partitioned table and an independent model of it: for every commit, the rows the table
 * should hold as of that commit. Writes go through the public API; the model is plain maps.
 */
final class ModelTable {
    static final RowType TYPE =
            RowType.of("k", DataTypes.INT(), "dt", DataTypes.STRING(), "v", DataTypes.BIGINT());
    static final Schema SCHEMA = new Schema(TYPE, List.of("k", "dt"), List.of("dt"));
    private static final String[] DAYS = {"2024-05-01", "2024-05-02"};
    private static final Comparator<List<Object>> ORDER =
            Comparator.<List<Object>, String>comparing(r -> (String) r.get(1))
                    .thenComparing(r -> (Integer) r.get(0));

    final Table table;

    /** Rows by key (k, dt) as of each commit. */
    private final Map<Long, List<List<Object>>> history = new ConcurrentHashMap<>();

    private final Map<List<Object>, List<Object>> rows = new TreeMap<>(ORDER);
    private long nextValue;

    ModelTable(Table table) {
        this.table = table;
        history.put(0L, List.of());
    }

    static ModelTable create(FileIO io, String location, Map<String, String> options, Clock clock) {
        return new ModelTable(Tables.create(io, location, SCHEMA, options, clock));
    }

    /** Upserts and deletes of random keys in one commit. */
    long append(Random random, int changes) {
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < changes; i++) {
                int k = random.nextInt(40);
                String dt = DAYS[random.nextInt(DAYS.length)];
                long v = ++nextValue;
                boolean delete = random.nextInt(5) == 0;
                RowKind kind = delete ? RowKind.DELETE : RowKind.INSERT;
                write.write(BinaryRowWriter.toRow(TYPE, kind, k, dt, v));
                if (delete) {
                    rows.remove(List.of(k, dt));
                } else {
                    rows.put(List.of(k, dt), List.of(k, dt, v));
                }
            }
            List<DataFile> files = write.prepareCommit();
            return record(table.newAppend().addFiles(files).commit().commit().id());
        }
    }

    /** Replaces one partition's rows; returns the commit. */
    long overwrite(Random random) {
        String dt = DAYS[random.nextInt(DAYS.length)];
        rows.keySet().removeIf(key -> key.get(1).equals(dt));
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < 5; i++) {
                int k = random.nextInt(40);
                long v = ++nextValue;
                write.write(BinaryRowWriter.toRow(TYPE, k, dt, v));
                rows.put(List.of(k, dt), List.of(k, dt, v));
            }
            return record(
                    table.newOverwrite()
                            .overwritePartition(Partition.of(dt))
                            .addFiles(write.prepareCommit())
                            .commit()
                            .commit()
                            .id());
        }
    }

    /** Compacts some file groups; returns the commit, or -1 if there was nothing to compact. */
    long compact(Random random) {
        Compaction compaction = table.newCompaction();
        if (random.nextBoolean()) {
            compaction.full();
        } else {
            compaction.minLogFiles(2);
        }
        var result = compaction.execute();
        return result == null ? -1 : record(result.commitId());
    }

    private long record(long commitId) {
        history.put(commitId, List.copyOf(rows.values()));
        return commitId;
    }

    /** Like {@link #expected}, but waits for the writer thread to record a commit it just made. */
    List<List<Object>> awaitExpected(long commitId) throws InterruptedException {
        List<List<Object>> expected;
        while ((expected = history.get(commitId)) == null) {
            Thread.sleep(1);
        }
        return expected;
    }

    /** The rows the model says snapshot {@code commitId} holds, in key order. */
    List<List<Object>> expected(long commitId) {
        List<List<Object>> expected = history.get(commitId);
        if (expected == null) {
            throw new IllegalArgumentException("The model has no commit " + commitId);
        }
        return expected;
    }

    /** The rows of snapshot {@code commitId} as the table reads them, in key order. */
    static List<List<Object>> read(Table table, long commitId) {
        List<List<Object>> out =
                Rows.readAll(table.newScan().useSnapshot(commitId).rows(), TYPE, false);
        out.sort(ORDER);
        return out;
    }

    /** Every file under a directory, as full paths. */
    static List<String> filesUnder(FileIO io, String directory) {
        try {
            List<String> paths = new ArrayList<>();
            for (FileStatus s : io.listRecursive(directory)) {
                paths.add(s.path());
            }
            paths.sort(null);
            return paths;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
