package io.weir.merge;

import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.exceptions.ValidationException;
import io.weir.io.LocalFileIO;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Invalid merge options and refused records: one error naming the table, option and rule. */
class MergeOptionsErrorsTest {
    private static final RowType TYPE =
            RowType.of(
                    "k", DataTypes.BIGINT(),
                    "v", DataTypes.BIGINT(),
                    "s", DataTypes.STRING(),
                    "seq", DataTypes.INT());
    private static final Schema KEYED = new Schema(TYPE, List.of("k"), List.of());

    @TempDir Path dir;

    private Table create(Schema schema, Map<String, String> options) {
        return Tables.create(new LocalFileIO(), dir.resolve("t").toString(), schema, options);
    }

    private void refused(Schema schema, Map<String, String> options, String message) {
        assertThatThrownBy(() -> create(schema, options))
                .isInstanceOf(ValidationException.class)
                .hasMessage("Cannot create table " + dir.resolve("t") + ": " + message);
    }

    @Test
    void engineNeedsAPrimaryKey() {
        refused(
                new Schema(TYPE, List.of(), List.of()),
                Map.of("merge-engine", "partial-update"),
                "merge-engine 'partial-update' needs a primary key; the table has none");
    }

    @Test
    void aggregateFunctionOnAKeyColumn() {
        refused(
                KEYED,
                Map.of("merge-engine", "aggregation", "fields.k.aggregate-function", "sum"),
                "option 'fields.k.aggregate-function': 'k' is a primary key column, which is not"
                        + " aggregated");
    }

    @Test
    void aggregateFunctionOfTheWrongType() {
        refused(
                KEYED,
                Map.of("merge-engine", "aggregation", "fields.s.aggregate-function", "sum"),
                "option 'fields.s.aggregate-function': 'sum' needs a numeric column; 's' is"
                        + " STRING");
    }

    @Test
    void aggregateOptionOfAMissingColumn() {
        refused(
                KEYED,
                Map.of("merge-engine", "aggregation", "fields.nope.aggregate-function", "max"),
                "option 'fields.nope.*' names column 'nope', which does not exist (columns: [k,"
                        + " v, s, seq])");
    }

    @Test
    void aggregateOptionOfAnotherEngine() {
        refused(
                KEYED,
                Map.of("fields.v.aggregate-function", "sum"),
                "option 'fields.v.aggregate-function' works with merge-engine 'aggregation' only,"
                        + " not 'deduplicate'");
    }

    @Test
    void sequenceGroupOfAMissingColumn() {
        refused(
                KEYED,
                Map.of("merge-engine", "partial-update", "fields.seq.sequence-group", "v,nope"),
                "option 'fields.seq.sequence-group' names column 'nope', which does not exist"
                        + " (columns: [k, v, s, seq])");
    }

    @Test
    void sequenceGroupWithAKeyColumn() {
        refused(
                KEYED,
                Map.of("merge-engine", "partial-update", "fields.seq.sequence-group", "k"),
                "option 'fields.seq.sequence-group' names primary key column 'k'; a sequence group"
                        + " holds non-key columns");
    }

    @Test
    void sequenceFieldWithPartialUpdate() {
        refused(
                KEYED,
                Map.of("merge-engine", "partial-update", "sequence.field", "seq"),
                "'sequence.field' works with merge-engine 'deduplicate' only, not 'partial-update';"
                        + " order columns with 'fields.<sequence-fields>.sequence-group'");
    }

    @Test
    void unknownAggregateFunction() {
        assertThatThrownBy(
                        () ->
                                create(
                                        KEYED,
                                        Map.of(
                                                "merge-engine",
                                                "aggregation",
                                                "fields.v.aggregate-function",
                                                "avg")))
                .hasMessageContaining(
                        "Invalid value 'avg' for option 'fields.v.aggregate-function': expected"
                                + " one of [sum, product, count, min, max, last-value,");
    }

    @Test
    void retractionsTheEngineCannotFoldAreRefusedAtWrite() {
        Table table = create(KEYED, Map.of("merge-engine", "first-row"));
        try (TableWrite write = table.newWrite().create()) {
            assertThatThrownBy(
                            () ->
                                    write.write(
                                            BinaryRowWriter.toRow(
                                                    TYPE, RowKind.DELETE, 1L, 2L, "x", 3)))
                    .isInstanceOf(ValidationException.class)
                    .hasMessage(
                            "Cannot write a -D record to table "
                                    + dir.resolve("t")
                                    + ": merge-engine 'first-row' does not take retractions (-U,"
                                    + " -D); set 'ignore-delete' = 'true' to drop them");
        }
    }

    @Test
    void aggregateThatCannotRetractIsRefusedAtWrite() {
        Table table =
                create(
                        KEYED,
                        Map.of(
                                "merge-engine",
                                "aggregation",
                                "fields.v.aggregate-function",
                                "max"));
        try (TableWrite write = table.newWrite().create()) {
            assertThatThrownBy(
                            () ->
                                    write.write(
                                            BinaryRowWriter.toRow(
                                                    TYPE, RowKind.UPDATE_BEFORE, 1L, 2L, "x", 3)))
                    .hasMessageEndingWith(
                            ": aggregate function 'max' of field 'v' cannot retract (-U, -D); set"
                                    + " 'fields.v.ignore-retract' = 'true' to leave it unchanged, or"
                                    + " 'ignore-delete' = 'true' to drop retractions");
        }
    }
}
