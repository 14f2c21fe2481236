package io.weir.flink.catalog.system;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.Table;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Computes the rows of the {@link SystemTable}s from a table's metadata. */
final class SystemTableRows {
    private SystemTableRows() {}

    /**
     * One row per commit. A commit lists the paths it removes; their record counts come from the
     * commits that added them, so the commits are replayed in order, tracking live files.
     */
    static List<RowData> commits(Table table) {
        long latest = table.currentSnapshot().id();
        Map<String, Long> liveRecords = new HashMap<>();
        List<RowData> rows = new ArrayList<>();
        for (long id = 1; id <= latest; id++) {
            Commit commit = table.commit(id);
            long removed = 0;
            for (String path : commit.removed()) {
                Long records = liveRecords.remove(path);
                removed += records == null ? 0 : records;
            }
            long added = 0;
            for (DataFile file : commit.added()) {
                added += file.recordCount();
                liveRecords.put(file.path(), file.recordCount());
            }
            rows.add(
                    GenericRowData.of(
                            commit.id(),
                            TimestampData.fromEpochMillis(commit.timestampMillis()),
                            StringData.fromString(commit.kind().name()),
                            added,
                            removed,
                            commit.added().size(),
                            commit.removed().size(),
                            StringData.fromString(commit.writerId()),
                            commit.checkpointId() < 0 ? null : commit.checkpointId()));
        }
        return rows;
    }

    /** One row per live file, by file group; in a group the base file first, then the logs. */
    static List<RowData> files(Table table) {
        List<String> partitionKeys = table.schema().partitionKeys();
        List<RowData> rows = new ArrayList<>();
        for (Map.Entry<FileGroupId, List<DataFile>> group :
                table.currentSnapshot().fileGroups().entrySet()) {
            String partition = group.getKey().partition().path(partitionKeys);
            for (DataFile file : group.getValue()) {
                rows.add(
                        GenericRowData.of(
                                StringData.fromString(file.path()),
                                StringData.fromString(partition),
                                file.bucket(),
                                StringData.fromString(file.kind().name()),
                                file.sizeInBytes(),
                                file.recordCount(),
                                file.sequence()));
            }
        }
        return rows;
    }
}
