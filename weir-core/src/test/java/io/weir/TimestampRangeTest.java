package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.data.Timestamp;
import io.weir.exceptions.ValidationException;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TIMESTAMP(7..9) values that a base file cannot store (a 64-bit count of nanoseconds: 1677-09-21
 * to 2262-04-11) are rejected when written, by every writer, for keyed and append-only tables:
 * accepted into a log, they would make every compaction of the file group fail. Values at the
 * limits and far dates in columns of lower precision are written, compacted and read back exactly.
 */
class TimestampRangeTest {
    private static final RowType TYPE =
            RowType.of(
                    "id", DataTypes.BIGINT(),
                    "valid_to", DataTypes.TIMESTAMP(9),
                    "at", DataTypes.TIMESTAMP_LTZ(9),
                    "micros", DataTypes.TIMESTAMP(6));
    private static final Schema KEYED = new Schema(TYPE, List.of("id"), List.of());
    private static final Schema APPEND = new Schema(TYPE, List.of(), List.of());

    private static final Timestamp NO_END = ts("9999-12-31T23:59:59.999999999");
    private static final Timestamp EARLY = ts("1500-01-01T00:00:00.000000001");
    private static final Timestamp MIN_NANOS = ts("1677-09-21T00:12:43.145224192");
    private static final Timestamp MAX_NANOS = ts("2262-04-11T23:47:16.854775807");
    private static final Timestamp NOW = ts("2024-05-06T07:08:09.123456789");

    private static final Object[] GOOD = {1L, NOW, NOW, NOW};

    @TempDir Path dir;
    @TempDir Path spill;

    @Test
    void outOfRangeNanosAreRejectedByEveryWriterAndNothingIsCommitted() {
        int n = 0;
        for (Schema schema : List.of(KEYED, APPEND)) {
            for (boolean bulk : new boolean[] {false, true}) {
                Table table = Tables.create(dir.resolve("t" + n++).toString(), schema, Map.of());
                for (Object[] bad :
                        List.of(
                                new Object[] {2L, NO_END, null, null},
                                new Object[] {3L, EARLY, null, null},
                                new Object[] {4L, null, NO_END, null})) {
                    String column = bad[1] != null ? "valid_to" : "at";
                    String type = bad[1] != null ? "TIMESTAMP(9)" : "TIMESTAMP_LTZ(9)";
                    Timestamp value = (Timestamp) (bad[1] != null ? bad[1] : bad[2]);
                    String shown = bad[1] != null ? value.toString() : value.toInstant().toString();
                    assertThatThrownBy(() -> writeAndCommit(table, bulk, GOOD, bad))
                            .as("%s, bulk %s", schema, bulk)
                            .isInstanceOf(ValidationException.class)
                            .hasMessage(
                                    "Cannot write a row to table "
                                            + table.location()
                                            + ": column '"
                                            + column
                                            + "' ("
                                            + type
                                            + ") holds "
                                            + shown
                                            + ", out of the range base files store for "
                                            + type.substring(0, type.indexOf('('))
                                            + "(7..9): 1677-09-21T00:12:43.145224192 to"
                                            + " 2262-04-11T23:47:16.854775807 (a 64-bit count of"
                                            + " nanoseconds since 1970); a column of precision 6"
                                            + " or less holds 0001-01-01 to 9999-12-31");
                    table.refresh();
                    assertThat(table.currentSnapshot().id()).isZero();
                }
            }
        }
    }

    @Test
    void valuesAtTheLimitsAndFarDatesOfLowerPrecisionCompactAndReadBackExactly() {
        int n = 0;
        for (Schema schema : List.of(KEYED, APPEND)) {
            for (boolean bulk : new boolean[] {false, true}) {
                Table table = Tables.create(dir.resolve("ok" + n++).toString(), schema, Map.of());
                List<Object[]> rows =
                        List.of(
                                new Object[] {
                                    1L, MIN_NANOS, MAX_NANOS, ts("9999-12-31T23:59:59.999999")
                                },
                                new Object[] {
                                    2L, MAX_NANOS, MIN_NANOS, ts("0001-01-01T00:00:00.000001")
                                },
                                new Object[] {3L, NOW, NOW, null});
                writeAndCommit(table, bulk, rows.toArray(Object[][]::new));
                table.refresh();
                if (!bulk) {
                    assertThat(table.newCompaction().full().execute()).isNotNull();
                    table.refresh();
                }
                assertThat(table.currentSnapshot().files())
                        .as("%s, bulk %s", schema, bulk)
                        .isNotEmpty()
                        .allMatch(f -> f.kind() == FileKind.BASE);
                List<List<Object>> read = Rows.readAll(table.newScan().rows(), TYPE, false);
                assertThat(read)
                        .as("%s, bulk %s", schema, bulk)
                        .containsExactlyInAnyOrderElementsOf(
                                rows.stream().map(Arrays::asList).toList());
            }
        }
    }

    private void writeAndCommit(Table table, boolean bulk, Object[]... rows) {
        if (bulk) {
            try (BulkWrite write = table.newBulkWrite().spillDirectory(spill.toString()).create()) {
                for (Object[] row : rows) {
                    write.write(BinaryRowWriter.toRow(TYPE, row));
                }
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
        } else {
            try (TableWrite write = table.newWrite().create()) {
                for (Object[] row : rows) {
                    write.write(BinaryRowWriter.toRow(TYPE, row));
                }
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
        }
    }

    private static Timestamp ts(String localDateTime) {
        return Timestamp.of(LocalDateTime.parse(localDateTime));
    }
}
