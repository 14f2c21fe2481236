package io.weir.schema;

import io.weir.Schema;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.UpdateSchema.Position;
import io.weir.data.BinaryRowWriter;
import io.weir.data.DoubleTexts;
import io.weir.data.RowKind;
import io.weir.testing.ModelSeeds;
import io.weir.testing.Rows;
import io.weir.testing.TestStorage;
import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.Field;
import io.weir.types.RowType;
import io.weir.types.TypeRoot;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schema changes mixed with writes (by writers of the current and of older versions), compactions
 * and time travel, against an independent model: the model keeps each value with the type it was
 * written as, and converts it to the type a read asks for with plain Java; the table maps files of
 * every version by field id. Every snapshot must read, at the end, as the model said at its time,
 * both in its own columns and in the latest ones.
 */
class SchemaEvolutionModelTest {
    @TempDir Path dir;

    /** A value as written: its Java value and the type of the column then. */
    private record Written(Object value, DataType type) {}

    /** A snapshot as the model saw it. */
    private record Expected(
            long snapshotId, TableMetadata version, Map<Long, Map<Integer, Written>> rows) {}

    @ParameterizedTest(name = "seed {0}")
    @ModelSeeds({1, 2, 3, 4})
    void everySnapshotReadsAsTheModelSays(int seed) {
        Random random = new Random(seed);
        TestStorage storage = TestStorage.current();
        RowType initial =
                RowType.of(
                        "k", DataTypes.BIGINT(),
                        "a", DataTypes.INT(),
                        "b", DataTypes.FLOAT(),
                        "c", DataTypes.DECIMAL(8, 2),
                        "d", DataTypes.VARCHAR(8));
        Table table =
                Tables.create(
                        storage.io(),
                        storage.location(dir, "t" + seed),
                        new Schema(initial, List.of("k"), List.of()),
                        Map.of("bucket", "2", "page-size", "4 kb"));
        Map<Long, Map<Integer, Written>> model = new HashMap<>();
        List<Expected> expected = new ArrayList<>();
        TableWrite older = null;
        TableMetadata olderVersion = null;
        int added = 0;
        for (int step = 0; step < 60; step++) {
            int op = random.nextInt(10);
            if (op < 5) {
                TableMetadata version = table.metadata();
                try (TableWrite write = table.newWrite().writeBufferSize(32 << 10).create()) {
                    writeBatch(write, version, random, model);
                    table.newAppend().addFiles(write.prepareCommit()).commit();
                }
            } else if (op == 5 && older != null) {
                // A writer created several versions ago commits rows of its version.
                writeBatch(older, olderVersion, random, model);
                table.newAppend().addFiles(older.prepareCommit()).commit();
                older.close();
                older = null;
            } else if (op == 6) {
                table.newCompaction().full().execute();
            } else {
                if (older == null && random.nextBoolean()) {
                    olderVersion = table.metadata();
                    older = table.newWrite().writeBufferSize(32 << 10).create();
                }
                change(table, random, added++);
            }
            table.refresh();
            expected.add(new Expected(table.currentSnapshot().id(), table.metadata(), copy(model)));
        }
        if (older != null) {
            older.close();
        }
        TableMetadata latest = table.metadata();
        if (ModelSeeds.Provider.named(seed)) {
            assertThat(latest.schemaId()).isGreaterThan(2);
        }
        for (Expected e : expected) {
            TableMetadata own = table.metadata(table.snapshot(e.snapshotId()).schemaId());
            assertThat(own.schemaId()).isEqualTo(e.version().schemaId());
            assertThat(read(table, e.snapshotId(), null))
                    .as("snapshot %s in its own columns", e.snapshotId())
                    .isEqualTo(rows(e.rows(), own.schema().rowType()));
            assertThat(read(table, e.snapshotId(), latest.schemaId()))
                    .as("snapshot %s in the latest columns", e.snapshotId())
                    .isEqualTo(rows(e.rows(), latest.schema().rowType()));
        }
    }

    /** Random upserts and deletes of 60 keys, in the columns of {@code version}. */
    private static void writeBatch(
            TableWrite write,
            TableMetadata version,
            Random random,
            Map<Long, Map<Integer, Written>> model) {
        RowType type = version.schema().rowType();
        for (int i = 0; i < 40; i++) {
            long k = random.nextInt(60);
            if (random.nextInt(8) == 0) {
                Object[] values = new Object[type.size()];
                values[0] = k;
                write.write(BinaryRowWriter.toRow(type, RowKind.DELETE, values));
                model.remove(k);
                continue;
            }
            Object[] values = new Object[type.size()];
            Map<Integer, Written> row = new HashMap<>();
            for (int f = 0; f < type.size(); f++) {
                Field field = type.field(f);
                values[f] = f == 0 ? (Object) k : value(field.type(), random);
                row.put(field.id(), new Written(values[f], field.type()));
            }
            write.write(BinaryRowWriter.toRow(type, values));
            model.put(k, row);
        }
    }

    private static Object value(DataType type, Random random) {
        if (random.nextInt(6) == 0) {
            return null;
        }
        return switch (type.root()) {
            case INT -> random.nextInt(2000) - 1000;
            case BIGINT -> (long) random.nextInt(2000) * 1_000_003L;
            case FLOAT -> random.nextInt(1000) / 8f;
            case DOUBLE -> random.nextInt(1000) / 3.0;
            case DECIMAL -> {
                int bound = (int) Math.min(1_000_000, Math.pow(10, type.precision() - 1));
                yield BigDecimal.valueOf(random.nextInt(2 * bound) - bound, type.scale());
            }
            case VARCHAR -> "s" + random.nextInt(1000);
            default -> throw new IllegalStateException(type.toString());
        };
    }

    /** One random schema change the rules allow. */
    private static void change(Table table, Random random, int n) {
        List<Field> fields = table.schema().fields().subList(1, table.schema().fields().size());
        Field f = fields.isEmpty() ? null : fields.get(random.nextInt(fields.size()));
        int kind = f == null ? 0 : random.nextInt(5);
        switch (kind) {
            case 0 -> {
                DataType[] types = {
                    DataTypes.INT(),
                    DataTypes.FLOAT(),
                    DataTypes.DECIMAL(6, 1),
                    DataTypes.VARCHAR(4)
                };
                Position where =
                        random.nextBoolean()
                                ? Position.last()
                                : Position.after(table.schema().rowType().field(0).name());
                table.updateSchema()
                        .addColumn("n" + n, types[random.nextInt(types.length)], null, where)
                        .commit();
            }
            case 1 -> {
                if (fields.size() > 1) {
                    table.updateSchema().dropColumn(f.name()).commit();
                }
            }
            case 2 -> table.updateSchema().renameColumn(f.name(), f.name() + "_" + n).commit();
            default -> {
                DataType wider = wider(f.type(), random);
                if (wider != null) {
                    table.updateSchema().updateColumnType(f.name(), wider).commit();
                }
            }
        }
    }

    private static DataType wider(DataType type, Random random) {
        if (random.nextInt(4) == 0
                && !(type.root() == TypeRoot.VARCHAR && type.length() == DataType.MAX_LENGTH)) {
            return DataTypes.STRING();
        }
        return switch (type.root()) {
            case INT -> DataTypes.BIGINT();
            case FLOAT -> DataTypes.DOUBLE();
            case DECIMAL -> DataTypes.DECIMAL(Math.min(38, type.precision() + 7), type.scale());
            case VARCHAR ->
                    type.length() == DataType.MAX_LENGTH
                            ? null
                            : DataTypes.VARCHAR(type.length() + 3);
            default -> null;
        };
    }

    private static List<List<Object>> read(Table table, long snapshotId, Integer schemaId) {
        var scan = table.newScan().useSnapshot(snapshotId);
        if (schemaId != null) {
            scan = scan.useSchema(schemaId);
        }
        List<List<Object>> rows =
                new ArrayList<>(Rows.readAll(scan.rows(), scan.readType(), false));
        rows.sort(Comparator.comparing(r -> (Long) r.get(0)));
        return rows;
    }

    /** The model's rows in the columns of {@code type}, converted as the model converts. */
    private static List<List<Object>> rows(Map<Long, Map<Integer, Written>> model, RowType type) {
        List<List<Object>> rows = new ArrayList<>();
        for (Map<Integer, Written> row : new TreeMap<>(model).values()) {
            List<Object> values = new ArrayList<>();
            for (Field f : type.fields()) {
                Written w = row.get(f.id());
                values.add(w == null ? null : convert(w.value(), w.type(), f.type()));
            }
            rows.add(values);
        }
        return rows;
    }

    /** Plain-Java conversions: widening keeps the value; to STRING is its SQL text. */
    private static Object convert(Object value, DataType from, DataType to) {
        if (value == null) {
            return null;
        }
        if (to.root() == TypeRoot.VARCHAR && from.root() != TypeRoot.VARCHAR) {
            return switch (from.root()) {
                    // The shortest decimal (docs/format.md §6.9), checked against a JDK 25's texts
                    // by
                    // DoubleTextsTest.
                case FLOAT, DOUBLE -> DoubleTexts.of(((Number) value).doubleValue());
                case DECIMAL -> ((BigDecimal) value).toPlainString();
                default -> value.toString();
            };
        }
        return switch (to.root()) {
            case BIGINT -> ((Number) value).longValue();
            case DOUBLE -> ((Number) value).doubleValue();
            default -> value;
        };
    }

    private static Map<Long, Map<Integer, Written>> copy(Map<Long, Map<Integer, Written>> model) {
        Map<Long, Map<Integer, Written>> copy = new HashMap<>();
        model.forEach((k, v) -> copy.put(k, new HashMap<>(v)));
        return copy;
    }
}
