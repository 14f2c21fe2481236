package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.exceptions.ValidationException;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tables without a primary key: rows are appended (duplicates kept), compaction bin-packs files,
 * overwrite replaces partitions, incremental reads return appended and removed rows.
 */
class AppendOnlyTableTest {
    private static final RowType TYPE =
            RowType.of(
                    "event", DataTypes.STRING(), "day", DataTypes.INT(), "n", DataTypes.BIGINT());

    @TempDir Path dir;

    @Test
    void appendsCompactionsOverwritesAndIncrementalReadsMatchAModel() {
        Table table =
                Tables.create(
                        dir.resolve("events").toString(),
                        new Schema(TYPE, List.of(), List.of("day")),
                        Map.of("bucket", "2", "page-size", "4 kb"));
        Random random = new Random(17);
        List<List<List<Object>>> history = new ArrayList<>();
        history.add(List.of());
        List<List<Object>> model = new ArrayList<>();
        for (int c = 1; c <= 20; c++) {
            if (c % 7 == 0) {
                assertThat(table.newCompaction().full().execute()).isNotNull();
            } else if (c % 9 == 0) {
                try (TableWrite write = table.newWrite().create()) {
                    write.write(BinaryRowWriter.toRow(TYPE, "replaced", 1, (long) c));
                    table.newOverwrite()
                            .overwritePartition(Partition.of("1"))
                            .addFiles(write.prepareCommit())
                            .commit();
                }
                model.removeIf(r -> r.get(1).equals(1));
                model.add(List.of("replaced", 1, (long) c));
            } else {
                // Two writers appending to different buckets in one commit, with a tiny buffer.
                List<DataFile> files = new ArrayList<>();
                for (int bucket = 0; bucket < 2; bucket++) {
                    try (TableWrite write =
                            table.newWrite()
                                    .appendBucket(bucket)
                                    .writeBufferSize(32 << 10)
                                    .create()) {
                        for (int i = random.nextInt(400); i > 0; i--) {
                            String event =
                                    random.nextInt(5) == 0 ? "same" : "e" + random.nextInt(1000);
                            int day = random.nextInt(3);
                            long n = random.nextInt(10);
                            write.write(BinaryRowWriter.toRow(TYPE, event, day, n));
                            model.add(List.of(event, day, n));
                        }
                        files.addAll(write.prepareCommit());
                    }
                }
                table.newAppend().addFiles(files).commit();
            }
            history.add(List.copyOf(model));
            assertThat(sorted(Rows.readAll(table.newScan().rows(), TYPE, false)))
                    .as("commit %d", c)
                    .isEqualTo(sorted(model));
        }
        for (int id = 0; id < history.size(); id++) {
            assertThat(sorted(Rows.readAll(table.newScan().useSnapshot(id).rows(), TYPE, false)))
                    .isEqualTo(sorted(history.get(id)));
        }
        // Between two commits: applying the changes to the start gives the end, and every -D
        // removes a row that was there (rows have no identity, so -D x then +I x is no change).
        for (int a = 0; a < history.size(); a += 2) {
            for (int b = a; b < history.size(); b += 3) {
                List<List<Object>> state = new ArrayList<>(history.get(a));
                for (List<Object> change :
                        Rows.readAll(table.newIncrementalScan().between(a, b).rows(), TYPE, true)) {
                    List<Object> row = change.subList(1, change.size());
                    if (change.get(0).equals("+I")) {
                        state.add(List.copyOf(row));
                    } else {
                        assertThat(change.get(0)).isEqualTo("-D");
                        assertThat(state.remove(row)).as("(%d, %d] deletes %s", a, b, row).isTrue();
                    }
                }
                assertThat(sorted(state))
                        .as("changes (%d, %d]", a, b)
                        .isEqualTo(sorted(history.get(b)));
            }
        }
    }

    @Test
    void deletesAreRejectedNamingTheTable() {
        Table table =
                Tables.create(
                        dir.resolve("t").toString(),
                        new Schema(TYPE, List.of(), List.of()),
                        Map.of());
        try (TableWrite write = table.newWrite().create()) {
            assertThatThrownBy(
                            () ->
                                    write.write(
                                            BinaryRowWriter.toRow(
                                                    TYPE, RowKind.DELETE, "x", 1, 1L)))
                    .isInstanceOf(ValidationException.class)
                    .hasMessage(
                            "Cannot write a -D row to table "
                                    + table.location()
                                    + ": it has no primary key, so rows can only be appended");
        }
    }

    private static List<String> sorted(List<List<Object>> rows) {
        return rows.stream().map(Objects::toString).sorted().toList();
    }
}
