package io.weir;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.data.RowReader;
import io.weir.exceptions.ValidationException;
import io.weir.testing.Rows;
import io.weir.testing.TestStorage;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Changing the number of buckets of one partition (docs/rescale.md). */
class RescalePartitionTest {
    private static final RowType TYPE =
            RowType.of(
                    "id", DataTypes.BIGINT(),
                    "dt", DataTypes.STRING(),
                    "v", DataTypes.INT());
    private static final String P2 = "2024-01-02";

    @TempDir Path dir;

    private Table keyed() {
        TestStorage storage = TestStorage.current();
        return Tables.create(
                storage.io(),
                storage.location(dir, "t"),
                new Schema(TYPE, List.of("id", "dt"), List.of("dt")),
                Map.of("bucket", "4", "page-size", "4 kb"));
    }

    // The rows and the model are RescaleTest's: same row type, same writes.
    private static void write(
            Table table, Random random, Map<String, List<Object>> model, int n, int days) {
        RescaleTest.write(table, random, model, n, days);
    }

    private static List<List<Object>> read(TableScan scan) {
        return RescaleTest.read(scan);
    }

    private static List<List<Object>> rows(Map<String, List<Object>> model) {
        return RescaleTest.rows(model);
    }

    /**
     * Each partition's count, from its files; and every row lies in the group its key hashes to.
     */
    private static Map<String, Integer> layout(Table table) {
        KeyFields key = KeyFields.of(TYPE, new int[] {0, 1});
        Map<String, Integer> counts = new TreeMap<>();
        for (ScanTask task : table.newScan().plan()) {
            String dt = task.fileGroup().partition().values().get(0);
            for (DataFile f : task.files()) {
                int n = BucketLayout.of(f, table::metadata);
                Integer before = counts.put(dt, n);
                assertThat(before == null || before == n).as("one count in %s", dt).isTrue();
                assertThat(f.bucket()).isLessThan(n);
            }
            int n = counts.get(dt);
            try (RowReader reader = table.newScan().open(task)) {
                while (reader.next()) {
                    BinaryRow row = reader.row();
                    assertThat(key.bucket(row, n)).isEqualTo(task.fileGroup().bucket());
                }
            }
        }
        return counts;
    }

    private static List<DataFile> filesOf(Table table, String dt) {
        return table.currentSnapshot().files().stream()
                .filter(f -> f.partition().values().get(0).equals(dt))
                .toList();
    }

    @Test
    void rescalingOnePartitionRewritesItAloneAndTheOptionStays() {
        Table table = keyed();
        Random random = new Random(5);
        Map<String, List<Object>> model = new TreeMap<>();
        for (int c = 0; c < 3; c++) {
            write(table, random, model, 900, 3);
        }
        long before = table.currentSnapshot().id();
        List<List<Object>> atBefore = read(table.newScan());
        assertThat(atBefore).isEqualTo(rows(model));
        List<DataFile> day1 = filesOf(table, "2024-01-01");

        CommitResult result = table.newRescale().partition("dt=" + P2).buckets(8).commit();
        table.refresh();
        Commit commit = result.commit();
        assertThat(commit.id()).isEqualTo(before + 1);
        assertThat(commit.kind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(commit.properties())
                .containsEntry(Rescale.COMMIT_PROPERTY, "4 -> 8")
                .containsEntry(Rescale.PARTITION_PROPERTY, "dt=" + P2);
        assertThat(commit.schemaId()).isEqualTo(0);
        assertThat(table.options().bucket()).as("the option stays").isEqualTo(4);
        assertThat(commit.added()).allMatch(f -> f.totalBuckets() == 8);
        assertThat(commit.removed()).allMatch(p -> p.startsWith("dt=" + P2 + "/"));
        assertThat(filesOf(table, "2024-01-01")).isEqualTo(day1);
        assertThat(read(table.newScan())).isEqualTo(rows(model));
        assertThat(layout(table)).isEqualTo(Map.of("2024-01-01", 4, P2, 8, "2024-01-03", 4));

        // Time travel reads the old layout; the rescale commit alone changes no row; a range
        // across it cannot be diffed group by group.
        assertThat(read(table.newScan().useSnapshot(before))).isEqualTo(atBefore);
        assertThat(table.newIncrementalScan().between(before, before + 1).plan()).isEmpty();
        write(table, random, model, 300, 1); // day 1 only: a writer of the option's layout
        long last = table.currentSnapshot().id();
        assertThatThrownBy(() -> table.newIncrementalScan().between(before - 1, last).plan())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot read the changes of table %s between commits %s and %s:"
                                + " partition dt=%s was rescaled from 4 to 8 buckets in between;"
                                + " read the changes before and after the rescale commit apart",
                        table.location(), before - 1, last, P2);
        assertThat(table.newIncrementalScan().between(before + 1, last).plan()).isNotEmpty();

        // A new partition takes the option.
        try (TableWrite write = table.newWrite().create()) {
            write.write(BinaryRowWriter.toRow(TYPE, 1L, "2024-01-09", 9));
            table.newAppend().addFiles(write.prepareCommit()).commit();
            model.put("1/2024-01-09", List.of(1L, "2024-01-09", 9));
        }

        // Compaction, whole and incremental, keeps each partition's layout.
        table.newCompaction().minLogFiles(1).execute();
        table.refresh();
        assertThat(read(table.newScan())).isEqualTo(rows(model));
        table.newCompaction().full().execute();
        table.refresh();
        assertThat(read(table.newScan())).isEqualTo(rows(model));
        assertThat(filesOf(table, P2)).allMatch(f -> f.totalBuckets() == 8);
        assertThat(layout(table))
                .isEqualTo(Map.of("2024-01-01", 4, P2, 8, "2024-01-03", 4, "2024-01-09", 4));

        // Back to the option's count (Paimon's default bucket_num): the files record no count.
        long atEight = table.currentSnapshot().id();
        CommitResult back = table.newRescale().partition(Map.of("dt", P2)).commit();
        assertThat(back.commit().properties()).containsEntry(Rescale.COMMIT_PROPERTY, "8 -> 4");
        table.refresh();
        assertThat(filesOf(table, P2)).isNotEmpty().allMatch(f -> f.totalBuckets() == 0);
        assertThat(table.newRescale().partition("dt=" + P2).commit()).as("no change").isNull();
        write(table, random, model, 500, 3);
        assertThat(read(table.newScan())).isEqualTo(rows(model));
        assertThat(layout(table).values()).containsOnly(4);
        assertThat(filesOf(table.newScan().useSnapshot(atEight).plan(), P2))
                .allMatch(f -> f.totalBuckets() == 8);

        // The whole table: the option changes and every partition follows.
        table.newRescale().partition("dt=2024-01-03").buckets(2).commit();
        table.refresh();
        CommitResult whole = table.newRescale().buckets(2).commit();
        table.refresh();
        assertThat(whole.commit().removed()).noneMatch(p -> p.startsWith("dt=2024-01-03/"));
        assertThat(table.options().bucket()).isEqualTo(2);
        assertThat(read(table.newScan())).isEqualTo(rows(model));
        assertThat(layout(table).values()).containsOnly(2);
        write(table, random, model, 300, 3);
        assertThat(read(table.newScan())).isEqualTo(rows(model));
    }

    private static List<DataFile> filesOf(List<ScanTask> tasks, String dt) {
        return tasks.stream()
                .filter(t -> t.fileGroup().partition().values().get(0).equals(dt))
                .flatMap(t -> t.files().stream())
                .toList();
    }

    @Test
    void aWriterOfTheTableLayoutCannotCommitIntoARescaledPartition() {
        Table table = keyed();
        Map<String, List<Object>> model = new HashMap<>();
        write(table, new Random(1), model, 300, 2);
        TableWrite writer = table.newWrite().create();
        writer.write(BinaryRowWriter.toRow(TYPE, 7L, P2, 1));
        writer.write(BinaryRowWriter.toRow(TYPE, 7L, "2024-01-01", 1));
        table.newRescale().partition("dt=" + P2).buckets(16).commit();
        table.refresh();
        List<List<Object>> atRescale = read(table.newScan());
        assertThat(atRescale).isEqualTo(rows(model));
        List<DataFile> files = writer.prepareCommit();
        DataFile intoP2 =
                files.stream()
                        .filter(f -> f.partition().values().get(0).equals(P2))
                        .findFirst()
                        .orElseThrow();
        assertThatThrownBy(() -> table.newAppend().addFiles(files).commit())
                .isInstanceOf(ValidationException.class)
                .hasMessageEndingWith(
                        "to table %s: file %s of partition dt=%s was written for 4 buckets, but the"
                                + " partition has 16 buckets (it was rescaled apart from the"
                                + " table, whose bucket option is 4): writers lay rows out by the"
                                + " option, so rescale partition dt=%s to 4 buckets (or the whole"
                                + " table to 16), then restart the writer",
                        table.location(), intoP2.path(), P2, P2);
        writer.close();
        table.refresh();
        assertThat(read(table.newScan())).as("nothing committed").isEqualTo(atRescale);

        // A writer that started before a whole-table rescale is told to restart.
        TableWrite old = table.newWrite().create();
        old.write(BinaryRowWriter.toRow(TYPE, 8L, "2024-01-01", 2));
        table.newRescale().buckets(16).commit();
        List<DataFile> oldFiles = old.prepareCommit();
        assertThatThrownBy(() -> table.newAppend().addFiles(oldFiles).commit())
                .isInstanceOf(ValidationException.class)
                .hasMessageEndingWith(
                        "to table %s: file %s of partition dt=2024-01-01 was written for 4"
                                + " buckets, but the table has 16 buckets now (it was rescaled);"
                                + " restart the writer so that it writes the new layout",
                        table.location(), oldFiles.get(0).path());
        old.close();
        table.refresh();
        assertThat(read(table.newScan())).isEqualTo(atRescale);
    }

    @Test
    void anOverwriteOfARescaledPartitionTakesTheOption() {
        Table table = keyed();
        Map<String, List<Object>> model = new TreeMap<>();
        write(table, new Random(6), model, 300, 2);
        table.newRescale().partition("dt=" + P2).buckets(8).commit();
        table.refresh();
        model.keySet().removeIf(k -> k.endsWith("/" + P2));
        try (TableWrite write = table.newWrite().create()) {
            for (long id = 0; id < 50; id++) {
                write.write(BinaryRowWriter.toRow(TYPE, id, P2, (int) id));
                model.put(id + "/" + P2, List.of(id, P2, (int) id));
            }
            table.newOverwrite()
                    .overwritePartition(Partition.of(P2))
                    .addFiles(write.prepareCommit())
                    .commit();
        }
        table.refresh();
        assertThat(read(table.newScan())).isEqualTo(rows(model));
        assertThat(layout(table)).isEqualTo(Map.of("2024-01-01", 4, P2, 4));
    }

    @Test
    void aRescaleRewritesTheSnapshotLatestWhenItCommits() {
        Table table = keyed();
        Map<String, List<Object>> model = new HashMap<>();
        write(table, new Random(2), model, 200, 2);
        Table other = Tables.load(table.io(), table.location());
        Rescale rescale = table.newRescale().partition("dt=" + P2).buckets(3);
        write(other, new Random(3), model, 50, 2);
        long latest = other.currentSnapshot().id();
        // Built before another process committed, it reads the latest snapshot when it commits.
        assertThat(rescale.commit().commit().id()).isEqualTo(latest + 1);
        table.refresh();
        assertThat(read(table.newScan())).isEqualTo(rows(model));
        assertThat(layout(table)).isEqualTo(Map.of("2024-01-01", 4, P2, 3));
    }

    @Test
    void timePartitionsRescaleByTheirDerivedKeys() {
        RowType type =
                RowType.of(
                        "id", DataTypes.BIGINT(),
                        "ts", DataTypes.TIMESTAMP(3),
                        "dt", DataTypes.DATE());
        TestStorage storage = TestStorage.current();
        Table table =
                Tables.create(
                        storage.io(),
                        storage.location(dir, "time"),
                        new Schema(type, List.of("id", "ts"), List.of("dt")),
                        Map.of("partition.time.column", "ts", "bucket", "2"));
        Map<String, List<Object>> model = new TreeMap<>();
        try (TableWrite write = table.newWrite().create()) {
            for (long id = 0; id < 200; id++) {
                LocalDateTime ts = LocalDateTime.of(2024, 5, 1 + (int) (id % 3), 10, 0);
                write.write(BinaryRowWriter.toRow(type, id, ts, null));
                model.put(id + "", List.of(id, ts, (int) ts.toLocalDate().toEpochDay()));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
        table.newRescale().partition("dt=2024-05-02").buckets(5).commit();
        table.refresh();
        Map<String, Integer> counts = new TreeMap<>();
        for (DataFile f : table.currentSnapshot().files()) {
            counts.put(f.partition().values().get(0), BucketLayout.of(f, table::metadata));
        }
        assertThat(counts).isEqualTo(Map.of("2024-05-01", 2, "2024-05-02", 5, "2024-05-03", 2));
        List<List<Object>> rows =
                new ArrayList<>(Rows.readAll(table.newScan().rows(), type, false));
        rows.sort(Comparator.comparing(r -> (Long) r.get(0)));
        // Timestamps read as Weir's own value class: compared by their texts.
        assertThat(rows.toString()).isEqualTo(sortedById(model).toString());
    }

    private static List<List<Object>> sortedById(Map<String, List<Object>> model) {
        List<List<Object>> rows = new ArrayList<>(model.values());
        rows.sort(Comparator.comparing(r -> (Long) r.get(0)));
        return rows;
    }

    @Test
    void badInputIsRefusedNamingTableAndArgument() {
        Table table = keyed();
        write(table, new Random(4), new HashMap<>(), 50, 2);
        String t = table.location();
        long id = table.currentSnapshot().id();
        assertThatThrownBy(() -> table.newRescale().partition("dt=2024-02-30").buckets(8).commit())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot rescale partition dt=2024-02-30 of table %s: the table has no"
                                + " such partition as of commit %s (partition values are"
                                + " canonical texts, e.g. dt=2024-01-01)",
                        t, id);
        for (String spec : new String[] {"dt", "=x", "", "dt=1,,"}) {
            assertThatThrownBy(() -> table.newRescale().partition(spec))
                    .as(spec)
                    .isInstanceOf(ValidationException.class)
                    .hasMessage(
                            "Cannot rescale table %s: invalid partition '%s': expected"
                                    + " key=value[,key=value...], e.g. dt=2024-01-01",
                            t, spec);
        }
        assertThatThrownBy(() -> table.newRescale().partition("dt=a,dt=b"))
                .hasMessage(
                        "Cannot rescale table %s: invalid partition 'dt=a,dt=b': key 'dt' is"
                                + " given twice",
                        t);
        assertThatThrownBy(() -> table.newRescale().partition("region=eu").buckets(2).commit())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot rescale partition region=eu of table %s: a partition names a"
                                + " value for each of the partition keys [dt], and nothing else",
                        t);
        assertThatThrownBy(() -> table.newRescale().partition("dt=" + P2).buckets(0).commit())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot rescale table %s to 0 buckets: the number of buckets must be"
                                + " between 1 and 32768",
                        t);
        assertThatThrownBy(() -> table.newRescale().commit())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot rescale table %s to -1 buckets: the number of buckets must be"
                                + " between 1 and 32768",
                        t);
        assertThat(table.currentSnapshot().id()).as("nothing committed").isEqualTo(id);

        TestStorage storage = TestStorage.current();
        Table flat =
                Tables.create(
                        storage.io(),
                        storage.location(dir, "flat"),
                        new Schema(TYPE, List.of("id", "dt"), List.of()),
                        Map.of());
        assertThatThrownBy(() -> flat.newRescale().partition("dt=x").buckets(2).commit())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot rescale partition dt=x of table %s: the table is not"
                                + " partitioned; rescale the whole table (without a partition)",
                        flat.location());
        Table append =
                Tables.create(
                        storage.io(),
                        storage.location(dir, "append"),
                        new Schema(TYPE, List.of(), List.of("dt")),
                        Map.of());
        assertThatThrownBy(() -> append.newRescale().partition("dt=x").buckets(2).commit())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot rescale a partition of table %s: it has no primary key, so its"
                                + " rows are placed in buckets freely and a partition has no"
                                + " layout to change; rescale the whole table to change its"
                                + " bucket option",
                        append.location());
    }
}
