package io.weir.flink.source;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A keyed, partitioned test table {@code (id BIGINT, dt STRING, name STRING, v INT)}, primary key
 * (id, dt), partitioned by dt, 2 buckets, written with the core API, with a model of its content.
 */
public final class TestTable {
    public static final String[] DAYS = {"2024-01-01", "2024-01-02"};

    public final Table table;
    public final String location;

    /** The model: the table's rows by key [id, dt]. */
    public final Map<List<Object>, List<Object>> model = new TreeMap<>(TestTable::compareKeys);

    private final List<Object[]> pending = new ArrayList<>();
    private int commits;

    public TestTable(Path dir) {
        this(dir, Map.of("bucket", "2"));
    }

    public TestTable(Path dir, Map<String, String> options) {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.STRING())
                        .column("name", DataTypes.STRING())
                        .column("v", DataTypes.INT())
                        .primaryKey("id", "dt")
                        .partitionKeys("dt")
                        .build();
        this.location = dir.resolve("t").toString();
        this.table = Tables.create(location, schema, options);
    }

    public RowType rowType() {
        return table.schema().rowType();
    }

    public void upsert(long id, String dt, String name, int v) {
        pending.add(new Object[] {RowKind.INSERT, id, dt, name, v});
        model.put(List.of(id, dt), List.of(id, dt, name, v));
    }

    public void delete(long id, String dt) {
        pending.add(new Object[] {RowKind.DELETE, id, dt, "", 0});
        model.remove(List.of(id, dt));
    }

    /** Random upserts and deletes of keys below {@code keys}. */
    public void randomChanges(Random random, int count, int keys) {
        for (int i = 0; i < count; i++) {
            long id = random.nextInt(keys);
            String dt = DAYS[random.nextInt(DAYS.length)];
            if (random.nextInt(4) == 0) {
                delete(id, dt);
            } else {
                upsert(id, dt, "n" + random.nextInt(1000), random.nextInt(100));
            }
        }
    }

    /** Commits the pending changes; returns the commit id. */
    public long commit() {
        try (TableWrite write = table.newWrite().create()) {
            for (Object[] op : pending) {
                Object[] values = {op[1], op[2], op[3], op[4]};
                write.write(BinaryRowWriter.toRow(rowType(), (RowKind) op[0], values));
            }
            List<DataFile> files = write.prepareCommit();
            table.newAppend().addFiles(files).identity("test", ++commits).commit();
        }
        pending.clear();
        table.refresh();
        return table.currentSnapshot().id();
    }

    public long compact() {
        table.newCompaction().full().execute();
        table.refresh();
        return table.currentSnapshot().id();
    }

    /** Rows of a core reader, each as [kind, values...]. */
    public static List<List<Object>> rows(RowReader reader, RowType type) {
        return Rows.readAll(reader, type, true);
    }

    /** A Flink row as [kind, values...], read through Flink's own accessors. */
    public static List<Object> values(
            RowData row, org.apache.flink.table.types.logical.RowType type) {
        List<Object> values = new ArrayList<>();
        values.add(row.getRowKind().shortString());
        for (int i = 0; i < type.getFieldCount(); i++) {
            Object v = RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row);
            values.add(v instanceof StringData s ? s.toString() : v);
        }
        return values;
    }

    /** The model's rows as [+I, values...]. */
    public List<List<Object>> modelRows() {
        List<List<Object>> rows = new ArrayList<>();
        model.values()
                .forEach(
                        r -> {
                            List<Object> row = new ArrayList<>();
                            row.add("+I");
                            row.addAll(r);
                            rows.add(row);
                        });
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static int compareKeys(List<Object> a, List<Object> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = ((Comparable<Object>) a.get(i)).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
