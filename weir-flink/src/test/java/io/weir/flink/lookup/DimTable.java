package io.weir.flink.lookup;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.types.DataTypes;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A dimension table {@code customers (id BIGINT, name STRING, country STRING)}, primary key id,
 * written with the core API, with a model of its content (rows as [id, name, country]).
 */
final class DimTable {
    static final String[] COUNTRIES = {"DE", "FR", "US", "JP", "Brazil-Nordeste"};

    final Table table;
    final String location;
    final Map<Long, List<Object>> model = new TreeMap<>();
    private final List<Object[]> pending = new ArrayList<>();
    private int commits;

    DimTable(Path dir, int buckets) {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("name", DataTypes.STRING())
                        .column("country", DataTypes.STRING())
                        .primaryKey("id")
                        .build();
        this.location = dir.resolve("customers").toString();
        this.table = Tables.create(location, schema, Map.of("bucket", String.valueOf(buckets)));
    }

    void upsert(long id, String name, String country) {
        pending.add(new Object[] {RowKind.INSERT, id, name, country});
        model.put(id, List.of(id, name, country));
    }

    void delete(long id) {
        pending.add(new Object[] {RowKind.DELETE, id, "", ""});
        model.remove(id);
    }

    /** Random upserts (names short and long, so inlined and out-of-line strings) and deletes. */
    void randomChanges(Random random, int count, int keys) {
        for (int i = 0; i < count; i++) {
            long id = random.nextInt(keys);
            if (random.nextInt(4) == 0) {
                delete(id);
            } else {
                String name = random.nextBoolean() ? "n" + random.nextInt(100) : "customer-" + i;
                upsert(id, name, COUNTRIES[random.nextInt(COUNTRIES.length)]);
            }
        }
    }

    /** Commits the pending changes; returns the commit id. */
    long commit() {
        try (TableWrite write = table.newWrite().create()) {
            for (Object[] op : pending) {
                write.write(
                        BinaryRowWriter.toRow(
                                table.schema().rowType(), (RowKind) op[0], op[1], op[2], op[3]));
            }
            List<DataFile> files = write.prepareCommit();
            table.newAppend().addFiles(files).identity("dim", ++commits).commit();
        }
        pending.clear();
        table.refresh();
        return table.currentSnapshot().id();
    }

    long compact() {
        table.newCompaction().full().execute();
        table.refresh();
        return table.currentSnapshot().id();
    }
}
