package io.weir.cli.services;

import io.weir.BulkWrite;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/** A keyed table (id, dt, v) partitioned by dt, written commit by commit with random changes. */
final class ServiceTable {
    static final String[] DAYS = {"2024-01-01", "2024-01-02"};

    final Table table;
    final String location;
    private final Random random;

    ServiceTable(Path dir, long seed) {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.STRING())
                        .column("v", DataTypes.BIGINT())
                        .primaryKey("id", "dt")
                        .partitionKeys("dt")
                        .build();
        this.location = dir.resolve("t").toString();
        this.table = Tables.create(location, schema, Map.of("bucket", "2"));
        this.random = new Random(seed);
    }

    /** One commit of random upserts and deletes; returns its id. */
    long commit(int changes) {
        RowType type = table.schema().rowType();
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < changes; i++) {
                long id = random.nextInt(100);
                String dt = DAYS[random.nextInt(DAYS.length)];
                RowKind kind = random.nextInt(5) == 0 ? RowKind.DELETE : RowKind.INSERT;
                write.write(BinaryRowWriter.toRow(type, kind, id, dt, random.nextLong()));
            }
            List<DataFile> files = write.prepareCommit();
            return table.newAppend().addFiles(files).commit().commit().id();
        }
    }

    /**
     * One batch load of {@code rows} new keys from {@code firstId} with bulk insert: sorted base
     * files that overlap those of earlier loads in every file group. Returns the commit's id.
     */
    long bulkLoad(long firstId, int rows) {
        RowType type = table.schema().rowType();
        try (BulkWrite write = table.newBulkWrite().create()) {
            for (long id = firstId; id < firstId + rows; id++) {
                write.write(
                        BinaryRowWriter.toRow(
                                type, RowKind.INSERT, id, DAYS[(int) (id % DAYS.length)], id));
            }
            List<DataFile> files = write.prepareCommit();
            return table.newAppend().addFiles(files).commit().commit().id();
        }
    }

    /** The rows of the latest snapshot, sorted by key. */
    List<List<Object>> rows() {
        return rowsAt(-1);
    }

    /** The rows of a snapshot (-1: the latest), sorted by key. */
    List<List<Object>> rowsAt(long snapshot) {
        Table fresh = Tables.load(location);
        RowType type = fresh.schema().rowType();
        Map<String, List<Object>> rows = new TreeMap<>();
        try (RowReader reader =
                (snapshot < 0 ? fresh.newScan() : fresh.newScan().useSnapshot(snapshot)).rows()) {
            while (reader.next()) {
                BinaryRow row = reader.row();
                List<Object> values = new ArrayList<>();
                for (int i = 0; i < type.size(); i++) {
                    values.add(row.get(i, type.type(i)));
                }
                rows.put(values.get(1) + "/" + values.get(0), values);
            }
        }
        return new ArrayList<>(rows.values());
    }

    /** Live files by file group, latest snapshot. */
    Map<FileGroupId, List<DataFile>> groups() {
        return Tables.load(location).currentSnapshot().fileGroups();
    }
}
