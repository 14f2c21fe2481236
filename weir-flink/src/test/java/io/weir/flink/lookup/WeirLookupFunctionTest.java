package io.weir.flink.lookup;

import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.exceptions.ValidationException;
import io.weir.flink.FileIOLoader;
import io.weir.flink.FlinkTypes;
import io.weir.types.DataTypes;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The lookup function over a real table, outside a Flink job: what it loads and what it answers.
 */
class WeirLookupFunctionTest {
    private static final List<String> COLUMNS = List.of("id", "name", "country");

    @TempDir Path dir;

    private WeirLookupFunction function(DimTable dim, int[] keys, String refresh) throws Exception {
        RowType rowType = FlinkTypes.toFlink(dim.table.schema());
        Path local = dir.resolve("local");
        WeirLookupFunction f =
                new WeirLookupFunction(
                        dim.location,
                        FileIOLoader.of(dim.location),
                        COLUMNS,
                        rowType,
                        keys,
                        dim.table.schema().primaryKey(),
                        Map.of(
                                "lookup.refresh-interval",
                                refresh,
                                "lookup.local-dir",
                                local.toString()));
        f.open();
        return f;
    }

    private static List<List<Object>> values(java.util.Collection<RowData> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (RowData r : rows) {
            out.add(List.of(r.getLong(0), r.getString(1).toString(), r.getString(2).toString()));
        }
        return out;
    }

    private static int bucketOf(DimTable dim, long id, int buckets) {
        KeyFields pk =
                KeyFields.of(
                        dim.table.schema().rowType(), dim.table.schema().primaryKeyPositions());
        return pk.bucket(BinaryRowWriter.toRow(dim.table.schema().rowType(), id, "", ""), buckets);
    }

    @Test
    void aPrimaryKeyLookupLoadsOnlyTheBucketsOfItsKeys() throws Exception {
        DimTable dim = new DimTable(dir, 4);
        dim.randomChanges(new Random(1), 600, 300);
        dim.commit();
        WeirLookupFunction f = function(dim, new int[] {0}, "1 h");
        assertThat(f.localTable().loadedGroups()).isZero();
        assertThat(f.localTable().groups()).isEqualTo(4);
        List<Long> bucketTwo = new ArrayList<>();
        for (long id = 0; id < 400; id++) {
            if (bucketOf(dim, id, 4) == 2) {
                bucketTwo.add(id);
            }
        }
        for (long id : bucketTwo) {
            List<List<Object>> expected =
                    dim.model.containsKey(id) ? List.of(dim.model.get(id)) : List.of();
            assertThat(values(f.lookup(GenericRowData.of(id)))).as("id %s", id).isEqualTo(expected);
        }
        assertThat(f.localTable().loadedGroups()).isEqualTo(1);
        for (long id = 0; id < 400; id++) {
            List<List<Object>> expected =
                    dim.model.containsKey(id) ? List.of(dim.model.get(id)) : List.of();
            assertThat(values(f.lookup(GenericRowData.of(id)))).as("id %s", id).isEqualTo(expected);
        }
        assertThat(f.localTable().loadedGroups()).isEqualTo(4);
        assertThat(f.localTable().rows()).isEqualTo(dim.model.size());
        f.close();
        try (Stream<Path> left = Files.list(dir.resolve("local"))) {
            assertThat(left).as("index files left after close").isEmpty();
        }
    }

    @Test
    void newCommitsShowAfterTheRefreshIntervalThroughOverlaysFoldedWhenLarge() throws Exception {
        DimTable dim = new DimTable(dir, 4);
        dim.randomChanges(new Random(2), 400, 200);
        dim.upsert(7, "before", "DE");
        dim.upsert(8, "kept", "FR");
        dim.commit();
        WeirLookupFunction hourly = function(dim, new int[] {0}, "1 h");
        WeirLookupFunction eager = function(dim, new int[] {0}, "0 ms");
        for (long id = 0; id < 200; id++) {
            hourly.lookup(GenericRowData.of(id));
            eager.lookup(GenericRowData.of(id));
        }
        assertThat(eager.localTable().groupLoads()).isEqualTo(4);

        dim.upsert(7, "after", "US");
        dim.delete(8);
        dim.commit();
        List<Object> before = List.of(7L, "before", "DE");
        List<Object> after = List.of(7L, "after", "US");
        assertThat(values(hourly.lookup(GenericRowData.of(7L)))).containsExactly(before);
        assertThat(values(hourly.lookup(GenericRowData.of(8L)))).hasSize(1);
        assertThat(values(eager.lookup(GenericRowData.of(7L)))).containsExactly(after);
        assertThat(values(eager.lookup(GenericRowData.of(8L)))).as("deleted").isEmpty();
        // The two changes went to overlays; nothing was rebuilt.
        assertThat(eager.localTable().overlayKeys()).isEqualTo(2);
        assertThat(eager.localTable().groupLoads()).isEqualTo(4);

        // A compaction changes files, not rows: the answers stay, the overlays too.
        dim.compact();
        assertAllKeys(dim, eager, 200);
        assertThat(eager.localTable().groupLoads()).isEqualTo(4);

        // Changes to more keys than a quarter of a group (and 1024) fold into a rebuild.
        for (long id = 1000; id < 7000; id++) {
            dim.upsert(id, "bulk", "JP");
        }
        dim.commit();
        assertAllKeys(dim, eager, 7000);
        assertThat(eager.localTable().groupLoads()).isEqualTo(8);
        assertThat(eager.localTable().overlayKeys()).isZero();
        hourly.close();
        eager.close();
    }

    private static void assertAllKeys(DimTable dim, WeirLookupFunction f, long keys) {
        for (long id = 0; id < keys; id++) {
            List<List<Object>> expected =
                    dim.model.containsKey(id) ? List.of(dim.model.get(id)) : List.of();
            assertThat(values(f.lookup(GenericRowData.of(id)))).as("id %s", id).isEqualTo(expected);
        }
    }

    @Test
    void aLookupByAColumnOutsideThePrimaryKeyReturnsEveryMatchingRow() throws Exception {
        DimTable dim = new DimTable(dir, 3);
        Random random = new Random(3);
        dim.randomChanges(random, 500, 250);
        dim.commit();
        WeirLookupFunction f = function(dim, new int[] {2}, "0 ms");
        assertThat(f.localTable().loadedGroups()).isEqualTo(3);
        for (int round = 0; round < 3; round++) {
            for (String country : DimTable.COUNTRIES) {
                List<List<Object>> expected =
                        dim.model.values().stream().filter(r -> r.get(2).equals(country)).toList();
                assertThat(values(f.lookup(GenericRowData.of(StringData.fromString(country)))))
                        .as("country %s", country)
                        .containsExactlyInAnyOrderElementsOf(expected);
            }
            assertThat(f.lookup(GenericRowData.of(StringData.fromString("nowhere")))).isEmpty();
            assertThat(f.lookup(GenericRowData.of((Object) null))).isEmpty();
            dim.randomChanges(random, 100, 250);
            dim.commit();
        }
        f.close();
    }

    @Test
    void aKeyOfSeveralColumnsInAnyOrderFindsItsRow() throws Exception {
        DimTable dim = new DimTable(dir, 4);
        dim.randomChanges(new Random(4), 300, 150);
        dim.commit();
        // ON c.country = ? AND c.id = ?: holds the primary key, so it is looked up by bucket.
        WeirLookupFunction f = function(dim, new int[] {2, 0}, "0 ms");
        for (long id = 0; id < 150; id++) {
            for (String country : DimTable.COUNTRIES) {
                List<Object> row = dim.model.get(id);
                List<List<Object>> expected =
                        row != null && row.get(2).equals(country) ? List.of(row) : List.of();
                assertThat(values(f.lookup(GenericRowData.of(StringData.fromString(country), id))))
                        .isEqualTo(expected);
            }
        }
        assertThat(f.localTable().loadedGroups()).isEqualTo(4);
        f.close();
    }

    @Test
    void anInvalidRefreshIntervalIsRefusedNamingTheOption() {
        DimTable dim = new DimTable(dir, 2);
        assertThatThrownBy(() -> function(dim, new int[] {0}, "soon"))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Invalid value for option 'lookup.refresh-interval'");
        assertThatThrownBy(() -> function(dim, new int[] {0}, "-1 s"))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("option 'lookup.refresh-interval'");
    }

    @Test
    void aLazyLoadOfAnExpiredSnapshotLoadsTheLatestInstead() throws Exception {
        DimTable dim = new DimTable(dir, 4);
        dim.randomChanges(new Random(6), 300, 150);
        dim.commit();
        WeirLookupFunction f = function(dim, new int[] {0}, "1 h");
        long opened = f.localTable().snapshotId();
        // Every file of the opened snapshot is compacted away and deleted.
        dim.randomChanges(new Random(7), 300, 150);
        dim.commit();
        dim.compact();
        dim.table.expireSnapshots().retainLast(1).expireOlderThan(Long.MAX_VALUE).commit();
        for (long id = 0; id < 150; id++) {
            List<List<Object>> expected =
                    dim.model.containsKey(id) ? List.of(dim.model.get(id)) : List.of();
            assertThat(values(f.lookup(GenericRowData.of(id)))).as("id %s", id).isEqualTo(expected);
        }
        assertThat(f.localTable().snapshotId()).isGreaterThan(opened);
        f.close();
    }

    @Test
    void aPrimaryKeyOfTwoColumnsProbedInTheOtherOrderFindsItsBucket() throws Exception {
        Schema schema =
                Schema.builder()
                        .column("name", DataTypes.STRING())
                        .column("id", DataTypes.INT())
                        .column("v", DataTypes.DOUBLE())
                        .primaryKey("name", "id")
                        .build();
        String location = dir.resolve("two").toString();
        Table table = Tables.create(location, schema, Map.of("bucket", "5"));
        Map<List<Object>, Double> model = new HashMap<>();
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < 500; i++) {
                String name = i % 3 == 0 ? "n" + (i % 7) : "a-longer-name-" + (i % 11);
                double v = i * 0.5;
                write.write(BinaryRowWriter.toRow(schema.rowType(), name, i % 40, v));
                model.put(List.of(name, i % 40), v);
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
        WeirLookupFunction f =
                new WeirLookupFunction(
                        location,
                        FileIOLoader.of(location),
                        schema.rowType().names(),
                        FlinkTypes.toFlink(schema),
                        new int[] {1, 0},
                        schema.primaryKey(),
                        Map.of("lookup.local-dir", dir.resolve("local2").toString()));
        f.open();
        for (int i = 0; i < 500; i++) {
            String name = i % 3 == 0 ? "n" + (i % 7) : "a-longer-name-" + (i % 11);
            Double v = model.get(List.of(name, i % 40));
            java.util.Collection<RowData> rows =
                    f.lookup(GenericRowData.of(i % 40, StringData.fromString(name)));
            assertThat(rows).hasSize(1);
            assertThat(rows.iterator().next().getDouble(2)).isEqualTo(v);
        }
        assertThat(f.lookup(GenericRowData.of(1, StringData.fromString("absent")))).isEmpty();
        f.close();
    }

    /**
     * A partition rescaled apart from the table (docs/rescale.md): each key is found in the bucket
     * of its partition's own count, before and after the partition's count changes again.
     */
    @Test
    void aPartitionRescaledApartIsProbedInItsOwnLayout() throws Exception {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.STRING())
                        .column("v", DataTypes.STRING())
                        .primaryKey("id", "dt")
                        .partitionKeys("dt")
                        .build();
        String location = dir.resolve("parts").toString();
        Table table = Tables.create(location, schema, Map.of("bucket", "4"));
        Map<List<Object>, String> model = new HashMap<>();
        Random random = new Random(9);
        java.util.function.IntConsumer commit =
                n -> {
                    try (TableWrite write = table.newWrite().create()) {
                        for (int i = 0; i < n; i++) {
                            long id = random.nextInt(200);
                            String dt = "d" + random.nextInt(3);
                            String v = "v" + random.nextInt(1000);
                            write.write(BinaryRowWriter.toRow(schema.rowType(), id, dt, v));
                            model.put(List.of(id, dt), v);
                        }
                        table.newAppend().addFiles(write.prepareCommit()).commit();
                    }
                };
        commit.accept(500);
        table.newRescale().partition("dt=d1").buckets(3).commit();
        WeirLookupFunction f =
                new WeirLookupFunction(
                        location,
                        FileIOLoader.of(location),
                        schema.rowType().names(),
                        FlinkTypes.toFlink(schema),
                        new int[] {0, 1},
                        schema.primaryKey(),
                        Map.of(
                                "lookup.refresh-interval",
                                "0 ms",
                                "lookup.local-dir",
                                dir.resolve("local3").toString()));
        f.open();
        Runnable check =
                () -> {
                    for (long id = 0; id < 200; id++) {
                        for (String dt : new String[] {"d0", "d1", "d2"}) {
                            String v = model.get(List.of(id, dt));
                            java.util.Collection<RowData> rows =
                                    f.lookup(GenericRowData.of(id, StringData.fromString(dt)));
                            assertThat(rows.stream().map(r -> r.getString(2).toString()).toList())
                                    .as("%s/%s", id, dt)
                                    .isEqualTo(v == null ? List.of() : List.of(v));
                        }
                    }
                };
        check.run();
        assertThat(f.localTable().groups()).isEqualTo(4 + 3 + 4);
        // Back to the option's count, then writes into it: the next lookups see both.
        table.newRescale().partition("dt=d1").commit();
        commit.accept(100);
        check.run();
        f.close();
    }

    @Test
    void anAppendOnlyTableIsLoadedWholeAndReturnsEveryRowOfAKey() throws Exception {
        Schema schema =
                Schema.builder()
                        .column("k", DataTypes.BIGINT())
                        .column("v", DataTypes.STRING())
                        .build();
        String location = dir.resolve("append").toString();
        Table table = Tables.create(location, schema, Map.of("bucket", "3"));
        Map<Long, List<String>> model = new HashMap<>();
        for (int commit = 0; commit < 2; commit++) {
            try (TableWrite write = table.newWrite().create()) {
                for (int i = 0; i < 300; i++) {
                    long k = i % 17;
                    String v = "v" + commit + "-" + i;
                    write.write(BinaryRowWriter.toRow(schema.rowType(), k, v));
                    model.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
                }
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
        }
        WeirLookupFunction f =
                new WeirLookupFunction(
                        location,
                        FileIOLoader.of(location),
                        schema.rowType().names(),
                        FlinkTypes.toFlink(schema),
                        new int[] {0},
                        List.of(),
                        Map.of("lookup.local-dir", dir.resolve("local3").toString()));
        f.open();
        assertThat(f.localTable().loadedGroups()).isEqualTo(f.localTable().groups());
        for (long k = 0; k < 20; k++) {
            List<String> values = new ArrayList<>();
            for (RowData r : f.lookup(GenericRowData.of(k))) {
                values.add(r.getString(1).toString());
            }
            assertThat(values)
                    .as("k %s", k)
                    .containsExactlyInAnyOrderElementsOf(model.getOrDefault(k, List.of()));
        }
        f.close();
    }
}
