package io.weir.service;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.ExpirePartitionsResult;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.data.Timestamp;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;
import io.weir.io.LocalFileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Partition expiry against a model: a keyed table partitioned by the local day in Tokyo ingests
 * rows around a moving clock (late rows included) while partitions expire; each expiry is one CLEAN
 * commit that drops exactly the days whose end is older than the retention; every snapshot reads as
 * the model said at its commit, old snapshots keep the dropped rows until snapshot expiry deletes
 * their files; dry runs change nothing; an append to an expired day is dropped with it.
 */
class PartitionExpiryTest {
    private static final ZoneId TOKYO = ZoneId.of("Asia/Tokyo");
    private static final RowType TYPE =
            RowType.of(
                    "id", DataTypes.INT(),
                    "ts", DataTypes.TIMESTAMP_LTZ(3),
                    "v", DataTypes.BIGINT(),
                    "dt", DataTypes.DATE());
    private static final Schema SCHEMA = new Schema(TYPE, List.of("id", "ts"), List.of("dt"));
    private static final long START = Instant.parse("2024-05-01T00:00:00Z").toEpochMilli();

    @TempDir Path dir;

    private final ManualClock clock = new ManualClock(START);
    private final Map<List<Object>, Long> rows = new TreeMap<>(PartitionExpiryTest::compare);
    private final Map<Long, List<String>> history = new HashMap<>();
    private final java.util.SortedSet<LocalDate> daysWithFiles = new java.util.TreeSet<>();

    @Test
    void expiredDaysAreDroppedInOneCommitAndOldSnapshotsStayReadable() throws Exception {
        Table table = create(Map.of("partition.expiration-time", "2 d", "bucket", "2"));
        history.put(0L, List.of());
        Random random = new Random(3);
        int expiries = 0;
        for (int step = 0; step < 40; step++) {
            clock.advance(Duration.ofHours(1 + random.nextInt(9)));
            append(table, random, 1 + random.nextInt(200));
            if (step % 4 == 3) {
                long before = table.currentSnapshot().id();
                long cutoff = clock.millis() - Duration.ofDays(2).toMillis();
                List<Partition> due = dueDays(cutoff);
                ExpirePartitionsResult preview = table.expirePartitions().apply();
                ExpirePartitionsResult dry = table.expirePartitions().dryRun().commit();
                table.refresh();
                assertThat(table.currentSnapshot().id()).isEqualTo(before);
                assertThat(preview.partitions()).isEqualTo(due).isEqualTo(dry.partitions());
                assertThat(dry.dryRun()).isTrue();

                ExpirePartitionsResult result = table.expirePartitions().commit();
                table.refresh();
                assertThat(result.partitions()).isEqualTo(due);
                assertThat(result.cutoffMillis()).isEqualTo(cutoff);
                if (due.isEmpty()) {
                    assertThat(result.commitId()).isEqualTo(-1);
                    assertThat(table.currentSnapshot().id()).isEqualTo(before);
                } else {
                    expiries++;
                    assertThat(result.commitId()).isEqualTo(before + 1);
                    Commit commit = table.commit(result.commitId());
                    assertThat(commit.kind()).isEqualTo(CommitKind.CLEAN);
                    assertThat(commit.added()).isEmpty();
                    assertThat(commit.removed()).hasSize(result.files());
                    assertThat(result.records())
                            .isEqualTo(
                                    table.snapshot(before).files().stream()
                                            .filter(f -> due.contains(f.partition()))
                                            .mapToLong(DataFile::recordCount)
                                            .sum());
                    rows.keySet().removeIf(k -> due.contains(day((Long) k.get(1))));
                    history.put(result.commitId(), model());
                }
                // No file of an expired day is live any more.
                for (DataFile f : table.currentSnapshot().files()) {
                    long dayEnd = dayEnd(LocalDate.parse(f.partition().values().get(0)));
                    assertThat(dayEnd).as(f.path()).isGreaterThan(cutoff);
                }
            }
            assertThat(read(table, table.currentSnapshot().id())).isEqualTo(model());
        }
        assertThat(expiries).isGreaterThan(3);
        // Every snapshot, the ones before each drop included, reads as it did.
        for (Map.Entry<Long, List<String>> e : history.entrySet()) {
            assertThat(read(table, e.getKey()))
                    .as("snapshot %d", e.getKey())
                    .isEqualTo(e.getValue());
        }
        // Until snapshot expiry: then the dropped days' files are deleted too.
        long latest = table.currentSnapshot().id();
        table.expireSnapshots().retainLast(1).expireOlderThan(clock.millis()).commit();
        assertThatThrownBy(() -> table.snapshot(latest - 1))
                .isInstanceOf(SnapshotExpiredException.class);
        assertThat(read(table, latest)).isEqualTo(history.get(latest));
        List<String> onDisk = new ArrayList<>();
        try (var files = Files.walk(dir.resolve("t"))) {
            files.filter(p -> p.toString().endsWith(".wlog") || p.toString().endsWith(".parquet"))
                    .forEach(p -> onDisk.add(dir.resolve("t").relativize(p).toString()));
        }
        assertThat(onDisk)
                .containsExactlyInAnyOrderElementsOf(
                        table.currentSnapshot().files().stream().map(DataFile::path).toList());
    }

    @Test
    void anAppendAfterThePreviewIsDroppedWithTheDay() {
        Table table = create(Map.of("partition.expiration-time", "1 d"));
        clock.advance(Duration.ofDays(5));
        long old = START + Duration.ofHours(1).toMillis();
        long fresh = clock.millis() - Duration.ofHours(1).toMillis();
        write(table, List.of(1, 2), old);
        write(table, List.of(3), fresh);
        var expiry = table.expirePartitions();
        assertThat(expiry.apply().partitions()).containsExactly(Partition.of("2024-05-01"));
        write(table, List.of(4), old + 1); // lands after the preview
        table.refresh();
        long files =
                table.currentSnapshot().files().stream()
                        .filter(f -> f.partition().equals(Partition.of("2024-05-01")))
                        .count();
        ExpirePartitionsResult result = expiry.commit();
        assertThat(result.files()).isEqualTo(files);
        assertThat(result.records()).isEqualTo(3);
        table.refresh();
        assertThat(
                        Rows.readAll(
                                table.newScan().select("id").rows(),
                                RowType.of("id", DataTypes.INT()),
                                false))
                .containsExactly(List.of(3));
        // The incremental read sees the drop as deletes of the dropped rows.
        List<List<Object>> changes =
                Rows.readAll(
                        table.newIncrementalScan().between(3, 4).select("id").rows(),
                        RowType.of("id", DataTypes.INT()),
                        true);
        assertThat(changes)
                .containsExactlyInAnyOrder(List.of("-D", 1), List.of("-D", 2), List.of("-D", 4));
        // A second expiry finds nothing.
        assertThat(table.expirePartitions().commit().commitId()).isEqualTo(-1);
    }

    @Test
    void theCutoffCanBeGivenAndIsRequired() {
        Table table = create(Map.of());
        write(table, List.of(1), START);
        assertThatThrownBy(() -> table.expirePartitions().commit())
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot expire partitions of table "
                                + table.location()
                                + ": set 'partition.expiration-time' or give a cutoff");
        // 1 May in Tokyo ends at 15:00 UTC.
        long end = Instant.parse("2024-05-01T15:00:00Z").toEpochMilli();
        assertThat(table.expirePartitions().olderThan(end - 1).commit().partitions()).isEmpty();
        assertThat(table.expirePartitions().olderThan(end).commit().partitions())
                .containsExactly(Partition.of("2024-05-01"));

        Table plain =
                Tables.create(
                        dir.resolve("plain").toString(),
                        new Schema(TYPE, List.of("id", "ts", "dt"), List.of("dt")),
                        Map.of());
        assertThatThrownBy(() -> plain.expirePartitions().olderThan(end).commit())
                .hasMessage(
                        "Cannot expire partitions of table "
                                + plain.location()
                                + ": it has no time partitions (set 'partition.time.column')");
    }

    // ---- the table, the writes and the model

    private Table create(Map<String, String> extra) {
        Map<String, String> options = new HashMap<>(extra);
        options.put("partition.time.column", "ts");
        options.put("partition.time.zone", "Asia/Tokyo");
        return Tables.create(
                new LocalFileIO(), dir.resolve("t").toString(), SCHEMA, options, clock);
    }

    /** Upserts and deletes around now, some rows up to 3 days late. */
    private void append(Table table, Random random, int n) {
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < n; i++) {
                int id = random.nextInt(50);
                long ts =
                        clock.millis()
                                - random.nextInt(4) * 86_400_000L
                                + random.nextInt(60) * 60_000L;
                List<Object> key = List.of(id, ts);
                daysWithFiles.add(LocalDate.ofInstant(Instant.ofEpochMilli(ts), TOKYO));
                if (rows.containsKey(key) && random.nextInt(5) == 0) {
                    write.write(
                            BinaryRowWriter.toRow(
                                    TYPE, RowKind.DELETE, id, Timestamp.ofMillis(ts), null, null));
                    rows.remove(key);
                } else {
                    long v = random.nextLong();
                    write.write(BinaryRowWriter.toRow(TYPE, id, Timestamp.ofMillis(ts), v, null));
                    rows.put(key, v);
                }
            }
            long id = table.newAppend().addFiles(write.prepareCommit()).commit().commit().id();
            history.put(id, model());
        }
    }

    private void write(Table table, List<Integer> ids, long ts) {
        try (TableWrite write = table.newWrite().create()) {
            for (int id : ids) {
                write.write(BinaryRowWriter.toRow(TYPE, id, Timestamp.ofMillis(ts), 0L, null));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    /** The days written to (files hold deletes too) and not dropped, that end by the cutoff. */
    private List<Partition> dueDays(long cutoff) {
        List<Partition> due =
                daysWithFiles.stream()
                        .filter(d -> dayEnd(d) <= cutoff)
                        .map(d -> Partition.of(d.toString()))
                        .toList();
        due.forEach(p -> daysWithFiles.remove(LocalDate.parse(p.values().get(0))));
        return due;
    }

    private static long dayEnd(LocalDate day) {
        return day.plusDays(1).atStartOfDay(TOKYO).toInstant().toEpochMilli();
    }

    private static Partition day(long millis) {
        return Partition.of(LocalDate.ofInstant(Instant.ofEpochMilli(millis), TOKYO).toString());
    }

    private List<String> model() {
        List<String> out = new ArrayList<>();
        rows.forEach(
                (k, v) ->
                        out.add(
                                k.get(0)
                                        + "@"
                                        + k.get(1)
                                        + "="
                                        + v
                                        + " "
                                        + LocalDate.ofInstant(
                                                        Instant.ofEpochMilli((Long) k.get(1)),
                                                        TOKYO)
                                                .toEpochDay()));
        out.sort(null);
        return out;
    }

    private static List<String> read(Table table, long snapshot) {
        List<String> out = new ArrayList<>();
        for (List<Object> r :
                Rows.readAll(table.newScan().useSnapshot(snapshot).rows(), TYPE, false)) {
            out.add(
                    r.get(0)
                            + "@"
                            + ((Timestamp) r.get(1)).millis()
                            + "="
                            + r.get(2)
                            + " "
                            + r.get(3));
        }
        out.sort(null);
        return out;
    }

    private static int compare(List<Object> a, List<Object> b) {
        int c = Integer.compare((Integer) a.get(0), (Integer) b.get(0));
        return c != 0 ? c : Long.compare((Long) a.get(1), (Long) b.get(1));
    }
}
