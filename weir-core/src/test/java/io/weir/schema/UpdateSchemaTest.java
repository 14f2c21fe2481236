package io.weir.schema;

import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.TableScan;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.UpdateSchema.Position;
import io.weir.data.BinaryRowWriter;
import io.weir.data.Timestamp;
import io.weir.exceptions.ValidationException;
import io.weir.expressions.Expressions;
import io.weir.testing.Rows;
import io.weir.testing.TestStorage;
import io.weir.types.DataTypes;
import io.weir.types.Field;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Changing a table's columns and options (docs/format.md, "Schema evolution"). */
class UpdateSchemaTest {
    private static final RowType TYPE =
            RowType.of(
                    "k", DataTypes.BIGINT(),
                    "dt", DataTypes.STRING(),
                    "v", DataTypes.INT(),
                    "s", DataTypes.VARCHAR(5));

    @TempDir Path dir;

    private Table keyed(Map<String, String> options) {
        TestStorage storage = TestStorage.current();
        Map<String, String> all = new HashMap<>(Map.of("bucket", "2"));
        all.putAll(options);
        return Tables.create(
                storage.io(),
                storage.location(dir, "t"),
                new Schema(TYPE, List.of("k", "dt"), List.of("dt")),
                all);
    }

    private static void write(Table table, RowType type, Object[]... rows) {
        try (TableWrite write = table.newWrite().useSchema(table.metadata().schemaId()).create()) {
            for (Object[] r : rows) {
                write.write(BinaryRowWriter.toRow(type, r));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    private static List<List<Object>> read(TableScan scan) {
        List<List<Object>> rows =
                new ArrayList<>(Rows.readAll(scan.rows(), scan.readType(), false));
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }

    private static List<List<Object>> rows(Object[]... rows) {
        return Arrays.stream(rows).map(Arrays::asList).toList();
    }

    @Test
    void columnChangesReadOldFilesByFieldIdWithoutRewritingThem() {
        Table table = keyed(Map.of());
        write(table, TYPE, new Object[] {1L, "a", 10, "x"}, new Object[] {2L, "a", 20, "y"});
        List<String> before = table.currentSnapshot().files().stream().map(DataFile::path).toList();

        TableMetadata v1 =
                table.updateSchema()
                        .addColumn("c", DataTypes.DOUBLE(), "added", Position.after("k"))
                        .renameColumn("v", "value")
                        .updateColumnType("value", DataTypes.BIGINT())
                        .updateColumnType("s", DataTypes.VARCHAR(10))
                        .dropColumn("s")
                        .commit();

        assertThat(v1.schemaId()).isEqualTo(1);
        assertThat(v1.schema().rowType().names()).containsExactly("k", "c", "dt", "value");
        assertThat(v1.schema().fields().get(1))
                .isEqualTo(new Field(4, "c", DataTypes.DOUBLE(), "added"));
        assertThat(v1.schema().rowType().type(3)).isEqualTo(DataTypes.BIGINT());
        assertThat(table.currentSnapshot().schemaId()).isEqualTo(1);
        assertThat(table.commit(table.currentSnapshot().id()).kind()).isEqualTo(CommitKind.SCHEMA);
        assertThat(table.currentSnapshot().files().stream().map(DataFile::path))
                .containsExactlyElementsOf(before);

        write(table, v1.schema().rowType(), new Object[] {2L, 2.5, "a", 5_000_000_000L});
        assertThat(read(table.newScan()))
                .containsExactlyElementsOf(
                        rows(
                                new Object[] {1L, null, "a", 10L},
                                new Object[] {2L, 2.5, "a", 5_000_000_000L}));
        // Compaction writes the latest schema; the rows stay.
        table.newCompaction().full().execute();
        assertThat(table.currentSnapshot().files()).allMatch(f -> f.schemaId() == 1);
        assertThat(read(table.newScan()))
                .containsExactlyElementsOf(
                        rows(
                                new Object[] {1L, null, "a", 10L},
                                new Object[] {2L, 2.5, "a", 5_000_000_000L}));
    }

    @Test
    void timeTravelReturnsAPastSnapshotWithItsOwnSchema() {
        Table table = keyed(Map.of());
        write(table, TYPE, new Object[] {1L, "a", 10, "x"});
        long first = table.currentSnapshot().id();
        table.updateSchema().dropColumn("s").addColumn("n", DataTypes.STRING()).commit();
        write(table, table.schema().rowType(), new Object[] {1L, "a", 11, "new"});

        TableScan past = table.newScan().useSnapshot(first);
        assertThat(past.readType().names()).containsExactly("k", "dt", "v", "s");
        assertThat(read(past)).containsExactly(List.of(1L, "a", 10, "x"));
        // The same snapshot in the latest columns: the dropped column is gone, the new one null.
        assertThat(read(past.useSchema(1))).containsExactly(Arrays.asList(1L, "a", 10, null));
        assertThat(read(table.newScan())).containsExactly(List.of(1L, "a", 11, "new"));
    }

    @Test
    void aWriterOfAnOlderSchemaKeepsWritingItsColumns() {
        Table table = keyed(Map.of());
        TableWrite old = table.newWrite().create(); // started before the change
        table.updateSchema()
                .addColumn("n", DataTypes.STRING(), null, Position.first())
                .updateColumnType("v", DataTypes.BIGINT())
                .commit();
        old.write(BinaryRowWriter.toRow(TYPE, 7L, "a", 70, "x"));
        table.newAppend().addFiles(old.prepareCommit()).commit();
        old.close();
        assertThat(table.currentSnapshot().schemaId()).isEqualTo(1);
        assertThat(table.currentSnapshot().files()).allMatch(f -> f.schemaId() == 0);
        assertThat(read(table.newScan())).containsExactly(Arrays.asList(null, 7L, "a", 70L, "x"));
    }

    @Test
    void readingAFileWrittenAfterAWideningWithTheOlderSchemaFailsNamingTheColumn() {
        Table table = keyed(Map.of());
        table.updateSchema().updateColumnType("v", DataTypes.BIGINT()).commit();
        write(table, table.schema().rowType(), new Object[] {1L, "a", 1L << 40, "x"});
        assertThatThrownBy(() -> read(table.newScan().useSchema(0)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("its column 'v' is BIGINT, which cannot be read as INT")
                .hasMessageContaining("restart the job");
        // Columns added later are simply not read by an older schema.
        table.updateSchema().addColumn("n", DataTypes.INT()).commit();
        write(table, table.schema().rowType(), new Object[] {2L, "a", 5L, "x", 9});
        assertThat(read(table.newScan().useSchema(1)))
                .containsExactlyElementsOf(
                        rows(
                                new Object[] {1L, "a", 1L << 40, "x"},
                                new Object[] {2L, "a", 5L, "x"}));
    }

    @Test
    void everyTypeWideningReadsOldValuesConverted() {
        RowType type =
                RowType.of(
                        "k", DataTypes.INT().notNull(),
                        "t", DataTypes.TINYINT(),
                        "sm", DataTypes.SMALLINT(),
                        "f", DataTypes.FLOAT(),
                        "d", DataTypes.DECIMAL(5, 2),
                        "b", DataTypes.BOOLEAN(),
                        "dt", DataTypes.DATE(),
                        "ts", DataTypes.TIMESTAMP(3),
                        "ts6", DataTypes.TIMESTAMP(6),
                        "i", DataTypes.INT(),
                        "by", DataTypes.BYTES());
        TestStorage storage = TestStorage.current();
        Table table =
                Tables.create(
                        storage.io(),
                        storage.location(dir, "w"),
                        new Schema(type, List.of("k"), List.of()),
                        Map.of("bucket", "1"));
        Timestamp ts = Timestamp.of(LocalDateTime.of(2024, 2, 29, 13, 5, 9, 120_000_000));
        Timestamp ts6 = Timestamp.of(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000));
        write(
                table,
                type,
                new Object[] {
                    1,
                    (byte) -7,
                    (short) 300,
                    0.1f,
                    new BigDecimal("-123.45"),
                    true,
                    (int) LocalDate.of(2024, 1, 2).toEpochDay(),
                    ts,
                    ts6,
                    -42,
                    "héllo".getBytes(java.nio.charset.StandardCharsets.UTF_8)
                },
                new Object[] {2, null, null, null, null, null, null, null, null, null, null},
                // Not UTF-8: the Unicode Standard's example of maximal subparts, then a surrogate
                // (three parts, which Java's own decoder would take as one).
                new Object[] {
                    3,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    java.util.HexFormat.of().parseHex("61f18080e180c262806380bf64eda080")
                });
        table.updateSchema()
                .updateColumnType("t", DataTypes.BIGINT())
                .updateColumnType("sm", DataTypes.INT())
                .updateColumnType("f", DataTypes.DOUBLE())
                .updateColumnType("d", DataTypes.DECIMAL(30, 2))
                .updateColumnType("b", DataTypes.STRING())
                .updateColumnType("dt", DataTypes.STRING())
                .updateColumnType("ts", DataTypes.STRING())
                .updateColumnType("ts6", DataTypes.STRING())
                .updateColumnType("i", DataTypes.STRING())
                .updateColumnType("by", DataTypes.STRING())
                .commit();
        List<List<Object>> rows = read(table.newScan());
        assertThat(rows.get(0))
                .containsExactly(
                        1,
                        -7L,
                        300,
                        (double) 0.1f,
                        new BigDecimal("-123.45"),
                        "true",
                        "2024-01-02",
                        "2024-02-29 13:05:09.120",
                        "1969-12-31 23:59:59.999999",
                        "-42",
                        "héllo");
        assertThat(rows.get(1))
                .containsExactly(2, null, null, null, null, null, null, null, null, null, null);
        // Each maximal ill-formed part is one U+FFFD.
        assertThat(rows.get(2).get(10))
                .isEqualTo("a\uFFFD\uFFFD\uFFFDb\uFFFDc\uFFFD\uFFFDd\uFFFD\uFFFD\uFFFD");
        // Statistics written under INT do not prune string predicates: '-42' < '-5' as strings.
        assertThat(read(table.newScan().filter(Expressions.equal("i", "-42")))).hasSize(1);
        assertThat(read(table.newScan().filter(Expressions.greaterThan("i", "-5")))).isEmpty();
        assertThat(read(table.newScan().filter(Expressions.lessThan("i", "-5")))).hasSize(1);
    }

    @Test
    void aDroppedColumnsIdIsNeverReused() {
        Table table = keyed(Map.of());
        write(table, TYPE, new Object[] {1L, "a", 10, "old"});
        table.updateSchema().dropColumn("s").commit();
        TableMetadata v2 = table.updateSchema().addColumn("s", DataTypes.STRING()).commit();
        assertThat(v2.schema().fields().get(3).id()).isEqualTo(4);
        assertThat(v2.schema().highestFieldId()).isEqualTo(4);
        assertThat(read(table.newScan())).containsExactly(Arrays.asList(1L, "a", 10, null));
        // The highest id survives a reload.
        Table reloaded = Tables.load(table.io(), table.location());
        assertThat(reloaded.schema().highestFieldId()).isEqualTo(4);
    }

    @Test
    void optionsChangeAsANewVersion() {
        Table table = keyed(Map.of("compaction.max-log-files", "3"));
        TableMetadata v1 =
                table.updateSchema()
                        .setOption("snapshot.num-retained.min", "3")
                        .resetOption("compaction.max-log-files")
                        .commit();
        assertThat(v1.options().toMap())
                .isEqualTo(Map.of("bucket", "2", "snapshot.num-retained.min", "3"));
        assertThat(table.metadata(0).options().toMap())
                .containsEntry("compaction.max-log-files", "3");
        // Nothing changed: no new version.
        assertThat(table.updateSchema().setOption("snapshot.num-retained.min", "3").commit())
                .isEqualTo(v1);
        assertThat(table.updateSchema().makeColumnNullable("v").commit()).isEqualTo(v1);
    }

    @Test
    void commentsAndNullability() {
        RowType type = RowType.of("k", DataTypes.INT().notNull(), "v", DataTypes.INT().notNull());
        TestStorage storage = TestStorage.current();
        Table table =
                Tables.create(
                        storage.io(),
                        storage.location(dir, "n"),
                        new Schema(type, List.of("k"), List.of()),
                        Map.of());
        TableMetadata v1 =
                table.updateSchema()
                        .makeColumnNullable("v")
                        .updateColumnComment("v", "the value")
                        .updateColumnComment("k", "the key")
                        .commit();
        assertThat(v1.schema().fields())
                .containsExactly(
                        new Field(0, "k", DataTypes.INT().notNull(), "the key"),
                        new Field(1, "v", DataTypes.INT(), "the value"));
    }

    @Test
    void aConcurrentChangeIsAppliedOnTopOrRefused() {
        Table a = keyed(Map.of());
        Table b = Tables.load(a.io(), a.location());
        b.updateSchema().addColumn("x", DataTypes.INT()).commit();
        // a's object still has version 0: its change applies to version 1.
        assertThat(
                        a.updateSchema()
                                .addColumn("y", DataTypes.INT())
                                .commit()
                                .schema()
                                .rowType()
                                .names())
                .containsExactly("k", "dt", "v", "s", "x", "y");
        b.updateSchema().dropColumn("x").commit();
        assertThatThrownBy(() -> a.updateSchema().renameColumn("x", "z").commit())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot rename column 'x' of table "
                                + a.location()
                                + ": no such column (columns: [k, dt, v, s, y])");
    }

    @Test
    void refusalsNameTheColumnOrOptionAndTheRule() {
        Table table =
                keyed(
                        Map.of(
                                "merge-engine", "partial-update",
                                "fields.v.sequence-group", "s"));
        String t = table.location();
        assertRefused(
                table,
                u -> u.dropColumn("k"),
                "Cannot drop column 'k' of table "
                        + t
                        + ": it is part of the primary key [k, dt], and primary-key columns cannot"
                        + " change");
        assertRefused(
                table,
                u -> u.renameColumn("dt", "day"),
                "Cannot rename column 'dt' of table "
                        + t
                        + ": it is part of the primary key [k, dt], and primary-key columns cannot"
                        + " change");
        assertRefused(
                table,
                u -> u.updateColumnType("s", DataTypes.VARCHAR(3)),
                "Cannot change column 's' of table "
                        + t
                        + " from VARCHAR(5) to VARCHAR(3): a type can only widen ("
                        + io.weir.types.TypeWidening.RULES
                        + ")");
        assertRefused(
                table,
                u -> u.updateColumnType("s", DataTypes.VARCHAR(5).notNull()),
                "Cannot change column 's' of table "
                        + t
                        + " from VARCHAR(5) to VARCHAR(5) NOT NULL: a type can only widen ("
                        + io.weir.types.TypeWidening.RULES
                        + ")");
        assertRefused(
                table,
                u -> u.addColumn("n", DataTypes.INT().notNull()),
                "Cannot add column 'n' to table "
                        + t
                        + " as INT NOT NULL: rows written before have no value for it, so it must"
                        + " be nullable");
        assertRefused(
                table,
                u -> u.addColumn("v", DataTypes.INT()),
                "Cannot add column 'v' to table " + t + ": a column of that name exists");
        assertRefused(
                table,
                u -> u.dropColumn("nope"),
                "Cannot drop column 'nope' of table "
                        + t
                        + ": no such column (columns: [k, dt, v, s])");
        assertRefused(
                table,
                u -> u.dropColumn("s"),
                "Cannot drop column 's' of table "
                        + t
                        + ": option 'fields.v.sequence-group' names it");
        assertRefused(
                table,
                u -> u.updateColumnType("v", DataTypes.BIGINT()),
                "Cannot change the type of column 'v' of table "
                        + t
                        + ": option 'fields.v.sequence-group' names it, and its values order the"
                        + " rows of a key");
        assertRefused(
                table,
                u -> u.setOption("bucket", "8"),
                "Cannot set option 'bucket' of table "
                        + t
                        + ": the number of buckets changes by rewriting the data, with CALL"
                        + " sys.rescale('<table>', <buckets>) or weir rescale (docs/rescale.md)");
        assertRefused(
                table,
                u -> u.setOption("merge-engine", "deduplicate"),
                "Cannot set option 'merge-engine' of table "
                        + t
                        + ": it is fixed when the table is created, as it decides how the rows"
                        + " already written are partitioned or merged");
        assertRefused(
                table,
                u -> u.setOption("no-such", "1"),
                "Cannot set option 'no-such' of table "
                        + t
                        + ": it is not a table option (table options: "
                        + String.join(", ", io.weir.options.TableOptions.keys())
                        + ")");
        assertThatThrownBy(
                        () -> table.updateSchema().setOption("write-buffer-size", "lots").commit())
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("Cannot alter table " + t + ": ")
                .hasMessageContaining("write-buffer-size");
        // Nothing was committed by any of them.
        assertThat(table.currentSnapshot().id()).isZero();
        assertThat(table.metadata().schemaId()).isZero();
    }

    @Test
    void theSequenceFieldsTypeIsFixed() {
        Table table = keyed(Map.of("sequence.field", "v"));
        assertRefused(
                table,
                u -> u.updateColumnType("v", DataTypes.BIGINT()),
                "Cannot change the type of column 'v' of table "
                        + table.location()
                        + ": option 'sequence.field' names it, and its values order the rows of a"
                        + " key");
    }

    @Test
    void anAggregatedColumnMustKeepATypeItsFunctionTakes() {
        Table table =
                keyed(Map.of("merge-engine", "aggregation", "fields.v.aggregate-function", "sum"));
        table.updateSchema().updateColumnType("v", DataTypes.BIGINT()).commit();
        assertThatThrownBy(
                        () ->
                                table.updateSchema()
                                        .updateColumnType("v", DataTypes.STRING())
                                        .commit())
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("Cannot alter table " + table.location() + ": ")
                .hasMessageContaining("'v'");
    }

    private static void assertRefused(
            Table table,
            java.util.function.Function<io.weir.UpdateSchema, io.weir.UpdateSchema> change,
            String message) {
        assertThatThrownBy(() -> change.apply(table.updateSchema()).commit())
                .isInstanceOf(ValidationException.class)
                .hasMessage(message);
    }
}
