package io.weir.flink.catalog.system;

import io.weir.BucketLayout;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.Snapshot;
import io.weir.SnapshotLease;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.Tag;
import io.weir.Tags;
import io.weir.types.Field;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Computes the rows of the metadata {@link SystemTable}s from a table's metadata. */
final class SystemTableRows {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SystemTableRows() {}

    static List<RowData> commits(SystemScan scan) {
        return CommitHistory.of(scan).rows();
    }

    /** One row per live file, by file group; in a group the base files first, then the logs. */
    static List<RowData> files(SystemScan scan) {
        List<String> partitionKeys = scan.table().schema().partitionKeys();
        List<RowData> rows = new ArrayList<>();
        for (Map.Entry<FileGroupId, List<DataFile>> group :
                scan.snapshot().fileGroups().entrySet()) {
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
                                file.sequence(),
                                file.schemaId()));
            }
        }
        return rows;
    }

    /** One row per partition with live files, in partition order. */
    static List<RowData> partitions(SystemScan scan) {
        Snapshot snapshot = scan.snapshot();
        CommitHistory history = CommitHistory.of(scan);
        List<String> partitionKeys = scan.table().schema().partitionKeys();
        Map<Partition, List<DataFile>> byPartition = new TreeMap<>();
        for (DataFile f : snapshot.files()) {
            byPartition.computeIfAbsent(f.partition(), p -> new ArrayList<>()).add(f);
        }
        List<RowData> rows = new ArrayList<>();
        for (Map.Entry<Partition, List<DataFile>> e : byPartition.entrySet()) {
            List<DataFile> files = e.getValue();
            rows.add(
                    GenericRowData.of(
                            StringData.fromString(e.getKey().path(partitionKeys)),
                            files.stream().mapToLong(DataFile::recordCount).sum(),
                            files.stream().mapToLong(DataFile::sizeInBytes).sum(),
                            (long) files.size(),
                            history.lastUpdate(files),
                            BucketLayout.of(files.get(0), scan.table()::metadata)));
        }
        return rows;
    }

    /** One row per file group (partition and bucket) with live files. */
    static List<RowData> buckets(SystemScan scan) {
        Snapshot snapshot = scan.snapshot();
        CommitHistory history = CommitHistory.of(scan);
        List<String> partitionKeys = scan.table().schema().partitionKeys();
        List<RowData> rows = new ArrayList<>();
        for (Map.Entry<FileGroupId, List<DataFile>> e : snapshot.fileGroups().entrySet()) {
            List<DataFile> files = e.getValue();
            long logs = files.stream().filter(f -> f.kind() == FileKind.LOG).count();
            rows.add(
                    GenericRowData.of(
                            StringData.fromString(e.getKey().partition().path(partitionKeys)),
                            e.getKey().bucket(),
                            (int) (files.size() - logs),
                            (int) logs,
                            files.stream().mapToLong(DataFile::recordCount).sum(),
                            files.stream().mapToLong(DataFile::sizeInBytes).sum(),
                            history.lastUpdate(files)));
        }
        return rows;
    }

    /** One row per schema version written, by id. */
    static List<RowData> schemas(SystemScan scan) {
        Table table = scan.table();
        List<RowData> rows = new ArrayList<>();
        for (int id : table.schemaIds()) {
            TableMetadata m = table.metadata(id);
            List<Map<String, Object>> fields = new ArrayList<>();
            for (Field f : m.schema().fields()) {
                Map<String, Object> field = new LinkedHashMap<>();
                field.put("id", f.id());
                field.put("name", f.name());
                field.put("type", f.type().toString());
                if (f.description() != null) {
                    field.put("description", f.description());
                }
                fields.add(field);
            }
            rows.add(
                    GenericRowData.of(
                            m.schemaId(),
                            json(fields),
                            json(m.schema().partitionKeys()),
                            json(m.schema().primaryKey()),
                            json(new TreeMap<>(m.options().toMap())),
                            null,
                            TimestampData.fromEpochMillis(m.createdMillis())));
        }
        return rows;
    }

    /** The options stored with the schema version in force at the scan's snapshot, by key. */
    static List<RowData> options(SystemScan scan) {
        TableMetadata m = scan.table().metadata(scan.snapshot().schemaId());
        List<RowData> rows = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(m.options().toMap()).entrySet()) {
            rows.add(
                    GenericRowData.of(
                            StringData.fromString(e.getKey()),
                            StringData.fromString(e.getValue())));
        }
        return rows;
    }

    /** One row per reader lease, by consumer id. */
    static List<RowData> consumers(SystemScan scan) {
        long now = System.currentTimeMillis();
        List<RowData> rows = new ArrayList<>();
        scan.table().leases().list().stream()
                .sorted(java.util.Comparator.comparing(SnapshotLease::consumerId))
                .forEach(
                        lease ->
                                rows.add(
                                        GenericRowData.of(
                                                StringData.fromString(lease.consumerId()),
                                                lease.commitId(),
                                                TimestampData.fromEpochMillis(
                                                        lease.expiresMillis()),
                                                lease.isLive(now))));
        return rows;
    }

    /** One row per tag, by name. */
    static List<RowData> tags(SystemScan scan) {
        Tags tags = scan.table().tags();
        List<RowData> rows = new ArrayList<>();
        for (Tag tag : tags.list()) {
            Snapshot s = tags.snapshot(tag.name());
            List<DataFile> files = s.files();
            rows.add(
                    GenericRowData.of(
                            StringData.fromString(tag.name()),
                            tag.commitId(),
                            s.schemaId(),
                            TimestampData.fromEpochMillis(s.timestampMillis()),
                            TimestampData.fromEpochMillis(tag.createdMillis()),
                            (long) files.size(),
                            files.stream().mapToLong(DataFile::recordCount).sum()));
        }
        return rows;
    }

    private static StringData json(Object value) {
        try {
            return StringData.fromString(JSON.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write " + value + " as JSON", e);
        }
    }
}
