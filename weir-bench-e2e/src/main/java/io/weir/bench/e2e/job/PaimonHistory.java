package io.weir.bench.e2e.job;

import org.apache.paimon.Snapshot;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.source.ScanMode;
import org.apache.paimon.utils.SnapshotManager;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Paimon table's history through Paimon's API (its bundle is on the child's classpath only in
 * Paimon runs): every snapshot from the earliest retained one, its delta manifest entries ({@code
 * FileStoreScan} with {@code ScanMode.DELTA}): ADD and DELETE of a file name at a level in a
 * bucket. {@code APPEND} snapshots are the ingest commits. Sorted runs: each level-0 file is one,
 * each other level is one. A file moved to another level without a rewrite (Paimon's upgrade) is a
 * DELETE and an ADD of the same name: no bytes written.
 */
final class PaimonHistory {
    private PaimonHistory() {}

    static CompactionHistory read(Path dir) {
        FileStoreTable table =
                FileStoreTableFactory.create(
                        LocalFileIO.create(), new org.apache.paimon.fs.Path(dir.toUri()));
        SnapshotManager snapshots = table.snapshotManager();
        CompactionHistory history = new CompactionHistory();
        Long earliest = snapshots.earliestSnapshotId();
        Long latest = snapshots.latestSnapshotId();
        if (earliest == null || latest == null) {
            return history;
        }
        if (earliest > 1) {
            history.start(
                    files(table, earliest, ScanMode.ALL).stream().map(PaimonHistory::of).toList());
            earliest++;
        }
        for (long id = earliest; id <= latest; id++) {
            Snapshot snapshot = snapshots.snapshot(id);
            List<CompactionHistory.File> added = new ArrayList<>();
            List<String> removed = new ArrayList<>();
            for (ManifestEntry e : files(table, id, ScanMode.DELTA)) {
                switch (e.kind()) {
                    case ADD -> added.add(of(e));
                    case DELETE -> removed.add(e.fileName());
                }
            }
            history.commit(
                    id,
                    snapshot.timeMillis(),
                    snapshot.commitKind() == Snapshot.CommitKind.APPEND,
                    added,
                    removed);
        }
        return history;
    }

    private static List<ManifestEntry> files(FileStoreTable table, long snapshot, ScanMode mode) {
        return table.store().newScan().withSnapshot(snapshot).withKind(mode).plan().files();
    }

    private static CompactionHistory.File of(ManifestEntry e) {
        String group = Arrays.toString(e.partition().toBytes()) + "/" + e.bucket();
        String run = e.level() == 0 ? "L0:" + e.fileName() : "L" + e.level();
        return new CompactionHistory.File(
                group, e.fileName(), e.file().fileSize(), e.file().rowCount(), run);
    }
}
