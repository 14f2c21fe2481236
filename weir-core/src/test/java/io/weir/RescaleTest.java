package io.weir;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.exceptions.ValidationException;
import io.weir.testing.Rows;
import io.weir.testing.TestStorage;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Changing the number of buckets (docs/rescale.md). */
class RescaleTest {
    private static final RowType TYPE =
            RowType.of(
                    "id", DataTypes.BIGINT(),
                    "dt", DataTypes.STRING(),
                    "v", DataTypes.INT());

    @TempDir Path dir;

    private Table keyed() {
        TestStorage storage = TestStorage.current();
        return Tables.create(
                storage.io(),
                storage.location(dir, "t"),
                new Schema(TYPE, List.of("id", "dt"), List.of("dt")),
                Map.of("bucket", "4", "page-size", "4 kb"));
    }

    /** Writes random upserts and deletes in several commits; returns the model by key text. */
    private static void write(Table table, Random random, Map<String, List<Object>> model, int n) {
        write(table, random, model, n, 3);
    }

    /** Random upserts and deletes into days 1 to {@code days}, one commit; updates the model. */
    static void write(
            Table table, Random random, Map<String, List<Object>> model, int n, int days) {
        try (TableWrite write = table.newWrite().writeBufferSize(16 << 10).create()) {
            for (int i = 0; i < n; i++) {
                long id = random.nextInt(300);
                String dt = "2024-01-0" + (1 + random.nextInt(days));
                String key = id + "/" + dt;
                if (random.nextInt(6) == 0) {
                    write.write(BinaryRowWriter.toRow(TYPE, RowKind.DELETE, id, dt, null));
                    model.remove(key);
                } else {
                    int v = random.nextInt(1000);
                    write.write(BinaryRowWriter.toRow(TYPE, id, dt, v));
                    model.put(key, List.of(id, dt, v));
                }
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    static List<List<Object>> read(TableScan scan) {
        List<List<Object>> rows = new ArrayList<>(Rows.readAll(scan.rows(), TYPE, false));
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }

    static List<List<Object>> rows(Map<String, List<Object>> model) {
        List<List<Object>> rows = new ArrayList<>(model.values());
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }

    /** Every row of the snapshot lies in the file group its key hashes to. */
    private static void assertLayout(Table table, int buckets) {
        KeyFields key = KeyFields.of(TYPE, new int[] {0, 1});
        int rows = 0;
        for (ScanTask task : table.newScan().plan()) {
            assertThat(task.fileGroup().bucket()).isLessThan(buckets);
            try (RowReader reader = table.newScan().open(task)) {
                while (reader.next()) {
                    BinaryRow row = reader.row();
                    assertThat(key.bucket(row, buckets)).isEqualTo(task.fileGroup().bucket());
                    rows++;
                }
            }
        }
        assertThat(rows).isGreaterThan(0);
    }

    @Test
    void rescaleKeepsEveryRowAndMovesItToItsNewBucket() {
        Table table = keyed();
        Random random = new Random(3);
        Map<String, List<Object>> model = new TreeMap<>();
        for (int c = 0; c < 4; c++) {
            write(table, random, model, 800);
        }
        long before = table.currentSnapshot().id();
        List<List<Object>> atBefore = read(table.newScan());
        assertThat(atBefore).isEqualTo(rows(model));

        CommitResult result = table.newRescale().buckets(8).commit();
        table.refresh();
        assertThat(result.commit().id()).isEqualTo(before + 1);
        assertThat(result.commit().kind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(result.commit().properties()).containsEntry(Rescale.COMMIT_PROPERTY, "4 -> 8");
        assertThat(table.options().bucket()).isEqualTo(8);
        assertThat(table.currentSnapshot().schemaId()).isEqualTo(1);
        assertThat(read(table.newScan())).isEqualTo(rows(model));
        assertLayout(table, 8);

        // The old snapshot reads as it was; the rescale commit alone changes no row.
        assertThat(read(table.newScan().useSnapshot(before))).isEqualTo(atBefore);
        assertThat(table.newIncrementalScan().between(before, before + 1).plan()).isEmpty();

        // Writes, compaction and a second rescale go on in the new layout.
        write(table, random, model, 800);
        table.newCompaction().full().execute();
        write(table, random, model, 300);
        assertThat(table.newRescale().buckets(3).commit()).isNotNull();
        table.refresh();
        assertThat(read(table.newScan())).isEqualTo(rows(model));
        assertLayout(table, 3);
        assertThat(table.newRescale().buckets(3).commit()).as("no change").isNull();

        long last = table.currentSnapshot().id();
        assertThatThrownBy(() -> table.newIncrementalScan().between(before, last).plan())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot read the changes of table "
                                + table.location()
                                + " between commits "
                                + before
                                + " and "
                                + last
                                + ": it was rescaled from 4 to 3 buckets in between; read the"
                                + " changes before and after the rescale commit apart");
    }

    @Test
    void aWriterOfTheOldLayoutCannotCommit() {
        Table table = keyed();
        Map<String, List<Object>> model = new HashMap<>();
        write(table, new Random(1), model, 200);
        TableWrite old = table.newWrite().create();
        old.write(BinaryRowWriter.toRow(TYPE, 7L, "2024-01-01", 1));
        table.newRescale().buckets(16).commit();
        List<DataFile> files = old.prepareCommit();
        assertThatThrownBy(() -> table.newAppend().addFiles(files).commit())
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("was written for 4 buckets, but the table has 16 buckets now")
                .hasMessageEndingWith("restart the writer so that it writes the new layout");
        old.close();
        table.refresh();
        assertThat(read(table.newScan())).isEqualTo(rows(model));
    }

    @Test
    void appendOnlyTablesChangeTheirOptionOnly() {
        TestStorage storage = TestStorage.current();
        Table table =
                Tables.create(
                        storage.io(),
                        storage.location(dir, "a"),
                        new Schema(TYPE, List.of(), List.of()),
                        Map.of("bucket", "2"));
        try (TableWrite write = table.newWrite().create()) {
            write.write(BinaryRowWriter.toRow(TYPE, 1L, "x", 1));
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
        List<DataFile> files = table.currentSnapshot().files();
        table.newRescale().buckets(5).commit();
        table.refresh();
        assertThat(table.options().bucket()).isEqualTo(5);
        assertThat(table.currentSnapshot().files()).isEqualTo(files);
    }

    @Test
    void anInvalidBucketCountIsRefused() {
        Table table = keyed();
        assertThatThrownBy(() -> table.newRescale().buckets(0).commit())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot rescale table "
                                + table.location()
                                + " to 0 buckets: the number of buckets must be between 1 and"
                                + " 32768");
    }
}
