package io.weir;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.data.Timestamp;
import io.weir.exceptions.ValidationException;
import io.weir.expressions.Expression;
import io.weir.expressions.Expressions;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tables partitioned by the local day or hour of a timestamp column: partitions appear with their
 * first row, the derived columns hold the local date and hour (across daylight-saving changes),
 * filters on the derived columns and on the timestamp column prune partitions (files skipped) and
 * return what a model says; mixed identity and time partitions; invalid declarations fail clearly.
 */
class TimePartitionedTableTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final RowType KEYED =
            RowType.of(
                    "id", DataTypes.BIGINT(),
                    "ts", DataTypes.TIMESTAMP_LTZ(3),
                    "v", DataTypes.STRING(),
                    "dt", DataTypes.DATE());
    private static final long START = Instant.parse("2024-03-28T20:00:00Z").toEpochMilli();
    private static final long SPAN = 5 * 86_400_000L; // to 2 April, over the change of 31 March

    @TempDir Path dir;

    /** A keyed table's rows by key (id, ts): v. */
    private final Map<List<Long>, String> model = new TreeMap<>(this::compareKeys);

    private final Set<LocalDate> daysWritten = new TreeSet<>();

    @Test
    void rowsLandInTheLocalDayOfTheirTimeAndReadsPruneByDayAndTime() {
        Table table = keyedTable("events", Map.of());
        Random random = new Random(7);
        for (int c = 0; c < 6; c++) {
            List<DataFile> files = new ArrayList<>();
            try (TableWrite write = table.newWrite().writeBufferSize(1 << 20).create()) {
                for (int i = 0; i < 3000; i++) {
                    long id = random.nextInt(400);
                    long ts = START + (long) (random.nextDouble() * SPAN) / 60_000 * 60_000;
                    // Late rows, and a wrong day given for dt: the writer derives it.
                    if (random.nextInt(10) == 0) {
                        ts -= 86_400_000L;
                    }
                    List<Long> key = List.of(id, ts);
                    daysWritten.add(localDate(ts));
                    if (random.nextInt(8) == 0 && model.containsKey(key)) {
                        write.write(row(RowKind.DELETE, id, ts, null));
                        model.remove(key);
                    } else {
                        String v = "v" + random.nextInt(1000);
                        write.write(row(RowKind.INSERT, id, ts, v));
                        model.put(key, v);
                    }
                }
                files.addAll(write.prepareCommit());
            }
            table.newAppend().addFiles(files).commit();
            if (c == 3) {
                table.newCompaction().full().execute();
            }
        }
        // Partitions exist through files: exactly the local days of the rows written.
        Set<LocalDate> partitions = new TreeSet<>();
        for (DataFile f : table.currentSnapshot().files()) {
            partitions.add(LocalDate.parse(f.partition().values().get(0)));
        }
        assertThat(partitions).isEqualTo(daysWritten);
        // Every row's dt is its local day, and it lies in the partition of that day.
        for (ScanTask task : table.newScan().plan()) {
            try (RowReader rows = table.newScan().open(task)) {
                while (rows.next()) {
                    BinaryRow r = rows.row();
                    LocalDate day = localDate(r.getLong(1));
                    assertThat(LocalDate.ofEpochDay(r.getInt(3))).isEqualTo(day);
                    assertThat(task.fileGroup().partition().values())
                            .containsExactly(day.toString());
                }
            }
        }
        assertThat(read(table, Expressions.alwaysTrue())).isEqualTo(expected(r -> true));

        long dayStart =
                LocalDate.parse("2024-03-31").atStartOfDay(BERLIN).toInstant().toEpochMilli();
        long dayEnd = LocalDate.parse("2024-04-01").atStartOfDay(BERLIN).toInstant().toEpochMilli();
        long noon = Instant.parse("2024-03-30T11:00:00Z").toEpochMilli();
        checkPruning(
                table,
                Expressions.equal("dt", "2024-03-31"),
                r -> localDate(r.ts).equals(LocalDate.parse("2024-03-31")),
                Set.of("2024-03-31"));
        checkPruning(
                table,
                Expressions.and(
                        Expressions.greaterThanOrEqual("ts", Instant.ofEpochMilli(dayStart)),
                        Expressions.lessThan("ts", Instant.ofEpochMilli(dayEnd))),
                r -> r.ts >= dayStart && r.ts < dayEnd,
                Set.of("2024-03-31"));
        checkPruning(
                table,
                Expressions.greaterThan("ts", Instant.ofEpochMilli(dayEnd - 1)),
                r -> r.ts > dayEnd - 1,
                Set.of("2024-04-01", "2024-04-02"));
        checkPruning(
                table,
                Expressions.equal("ts", Instant.ofEpochMilli(noon)),
                r -> r.ts == noon,
                Set.of("2024-03-30"));
        checkPruning(
                table,
                Expressions.not(Expressions.greaterThanOrEqual("ts", Instant.ofEpochMilli(noon))),
                r -> r.ts < noon,
                Set.of("2024-03-27", "2024-03-28", "2024-03-29", "2024-03-30"));
        checkPruning(
                table,
                Expressions.in(
                        "ts", Instant.ofEpochMilli(noon), Instant.ofEpochMilli(dayStart + 60_000)),
                r -> r.ts == noon || r.ts == dayStart + 60_000,
                Set.of("2024-03-30", "2024-03-31"));
        checkPruning(
                table,
                Expressions.or(
                        Expressions.lessThan("ts", Instant.ofEpochMilli(START)),
                        Expressions.equal("dt", LocalDate.parse("2024-04-02"))),
                r -> r.ts < START || localDate(r.ts).equals(LocalDate.parse("2024-04-02")),
                Set.of("2024-03-27", "2024-03-28", "2024-04-02"));
        // Not prunable by partition: every partition is read, the rows are still right.
        checkPruning(table, Expressions.equal("v", "v1"), r -> r.v.equals("v1"), null);
    }

    private void checkPruning(
            Table table, Expression filter, Predicate<Row> model, Set<String> partitions) {
        List<ScanTask> all = table.newScan().plan();
        List<ScanTask> kept = table.newScan().filter(filter).plan();
        Set<String> keptPartitions = new TreeSet<>();
        kept.forEach(t -> keptPartitions.add(t.fileGroup().partition().values().get(0)));
        Set<String> present = new HashSet<>();
        all.forEach(t -> present.add(t.fileGroup().partition().values().get(0)));
        if (partitions == null) {
            assertThat(kept).as("%s", filter).hasSameSizeAs(all);
        } else {
            Set<String> expected = new TreeSet<>(partitions);
            expected.retainAll(present);
            assertThat(keptPartitions).as("partitions read for %s", filter).isEqualTo(expected);
            int files = all.stream().mapToInt(t -> t.files().size()).sum();
            int read = kept.stream().mapToInt(t -> t.files().size()).sum();
            assertThat(read).as("files read for %s", filter).isLessThan(files);
        }
        assertThat(read(table, filter)).as("rows of %s", filter).isEqualTo(expected(model));
    }

    @Test
    void hourPartitionsNextToAnIdentityPartitionInNewYork() {
        RowType type =
                RowType.of(
                        "region", DataTypes.STRING(),
                        "ts", DataTypes.TIMESTAMP(6),
                        "n", DataTypes.INT(),
                        "dt", DataTypes.DATE(),
                        "hr", DataTypes.INT());
        Table table =
                Tables.create(
                        dir.resolve("hits").toString(),
                        new Schema(type, List.of(), List.of("region", "dt", "hr")),
                        Map.of(
                                "partition.time.column", "ts",
                                "partition.time.granularity", "hour",
                                "partition.time.zone", "America/New_York",
                                "bucket", "1"));
        ZoneId newYork = ZoneId.of("America/New_York");
        // Around the fall-back of 3 November 2024: local 01:00-02:00 happens twice.
        long from = Instant.parse("2024-11-03T03:30:00Z").toEpochMilli();
        List<List<Object>> rows = new ArrayList<>();
        Map<String, Integer> perPartition = new TreeMap<>();
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < 400; i++) {
                String region = i % 3 == 0 ? "eu" : "us";
                // TIMESTAMP: the epoch millis of a UTC date-time.
                Timestamp ts = new Timestamp(from + i * 60_000L, i);
                write.write(BinaryRowWriter.toRow(type, region, ts, i, 999, 99));
                LocalDateTime local =
                        LocalDateTime.ofInstant(Instant.ofEpochMilli(ts.millis()), newYork);
                int day = (int) local.toLocalDate().toEpochDay();
                rows.add(List.of(region, ts, i, day, local.getHour()));
                perPartition.merge(
                        region + "/" + local.toLocalDate() + "/" + local.getHour(),
                        1,
                        Integer::sum);
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
        Map<String, Integer> files = new TreeMap<>();
        for (DataFile f : table.currentSnapshot().files()) {
            files.merge(
                    String.join("/", f.partition().values()), (int) f.recordCount(), Integer::sum);
            assertThat(f.path()).startsWith(f.partition().path(List.of("region", "dt", "hr")));
        }
        assertThat(files).isEqualTo(perPartition);
        assertThat(files).containsKeys("us/2024-11-03/1", "us/2024-11-02/23");
        List<List<Object>> read = Rows.readAll(table.newScan().rows(), type, false);
        assertThat(read).containsExactlyInAnyOrderElementsOf(rows);
        // The local hour 1 of 3 November took two hours of UTC time.
        assertThat(perPartition.get("us/2024-11-03/1") + perPartition.get("eu/2024-11-03/1"))
                .isEqualTo(120);
        List<ScanTask> hour1 =
                table.newScan()
                        .filter(
                                Expressions.and(
                                        Expressions.equal("region", "us"),
                                        Expressions.equal("hr", 1)))
                        .plan();
        assertThat(hour1).hasSize(1);
    }

    @Test
    void appendOnlyRowsGetTheirHourAndANullTimeTheNullPartition() {
        RowType type =
                RowType.of(
                        "ts", DataTypes.TIMESTAMP_LTZ(3),
                        "n", DataTypes.INT(),
                        "dt", DataTypes.DATE(),
                        "hr", DataTypes.INT());
        Table table =
                Tables.create(
                        dir.resolve("clicks").toString(),
                        new Schema(type, List.of(), List.of("dt", "hr")),
                        Map.of(
                                "partition.time.column", "ts",
                                "partition.time.granularity", "hour",
                                "partition.time.zone", "+05:30",
                                "bucket", "1"));
        long t = Instant.parse("2024-05-01T18:29:00Z").toEpochMilli(); // 23:59 local
        try (TableWrite write = table.newWrite().writeBufferSize(1 << 20).create()) {
            for (int i = 0; i < 300; i++) {
                Timestamp ts = i % 3 == 0 ? null : Timestamp.ofMillis(t + i * 1000L);
                write.write(BinaryRowWriter.toRow(type, ts, i, 7, 7));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
        Map<String, Integer> counts = new TreeMap<>();
        for (DataFile f : table.currentSnapshot().files()) {
            counts.merge(
                    f.partition().path(List.of("dt", "hr")), (int) f.recordCount(), Integer::sum);
        }
        assertThat(counts)
                .isEqualTo(
                        Map.of(
                                "dt=__DEFAULT_PARTITION__/hr=__DEFAULT_PARTITION__", 100,
                                "dt=2024-05-01/hr=23", 40,
                                "dt=2024-05-02/hr=0", 160));
        for (List<Object> r : Rows.readAll(table.newScan().rows(), type, false)) {
            if (r.get(0) == null) {
                assertThat(r.subList(2, 4)).containsExactly(null, null);
            } else {
                LocalDateTime local =
                        LocalDateTime.ofInstant(
                                ((Timestamp) r.get(0)).toInstant(), ZoneId.of("+05:30"));
                assertThat(r.subList(2, 4))
                        .containsExactly((int) local.toLocalDate().toEpochDay(), local.getHour());
            }
        }
    }

    @Test
    void invalidTimePartitionsFailNamingTheProblem() {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("ts", DataTypes.TIMESTAMP(3))
                        .column("dt", DataTypes.DATE())
                        .column("s", DataTypes.STRING())
                        .primaryKey("id", "ts")
                        .partitionKeys("dt")
                        .build();
        assertThatThrownBy(() -> create(schema, Map.of("partition.time.column", "nope")))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Invalid option 'partition.time.column': column 'nope' does not exist"
                                + " (columns: [id, ts, dt, s])");
        assertThatThrownBy(() -> create(schema, Map.of("partition.time.column", "s")))
                .hasMessage(
                        "Invalid option 'partition.time.column': column 's' has type STRING,"
                                + " expected a TIMESTAMP or TIMESTAMP_LTZ");
        assertThatThrownBy(
                        () ->
                                create(
                                        schema,
                                        Map.of(
                                                "partition.time.column", "ts",
                                                "partition.time.day-column", "s")))
                .hasMessage(
                        "Invalid option 'partition.time.day-column': column 's' has type STRING,"
                                + " expected DATE");
        assertThatThrownBy(
                        () ->
                                create(
                                        schema,
                                        Map.of(
                                                "partition.time.column", "ts",
                                                "partition.time.granularity", "hour")))
                .hasMessage(
                        "Invalid option 'partition.time.hour-column': column 'hr' does not exist"
                                + " (columns: [id, ts, dt, s]); declare it as a INT partition key");
        assertThatThrownBy(() -> create(schema, Map.of("partition.time.zone", "Mars/Base")))
                .hasMessageContaining("Invalid value 'Mars/Base' for option 'partition.time.zone'");
        assertThatThrownBy(() -> create(schema, Map.of("partition.expiration-time", "7 d")))
                .hasMessage(
                        "Invalid option 'partition.expiration-time': partitions expire by time, so"
                                + " it needs 'partition.time.column'");
        assertThatThrownBy(() -> create(schema, Map.of("partition.time.granularity", "hour")))
                .hasMessage(
                        "Invalid option 'partition.time.granularity': it configures time"
                                + " partitions, which need 'partition.time.column'");
        Schema keyWithoutTime = new Schema(schema.rowType(), List.of("id", "s"), List.of("dt"));
        assertThatThrownBy(() -> create(keyWithoutTime, Map.of("partition.time.column", "ts")))
                .hasMessage(
                        "Invalid time partitioning: column 'ts' must be part of the primary key"
                                + " [id, s], so that each key lives in one partition");
        Schema derivedInKey = new Schema(schema.rowType(), List.of("id", "dt"), List.of("dt"));
        assertThatThrownBy(() -> create(derivedInKey, Map.of("partition.time.column", "ts")))
                .hasMessage(
                        "Invalid option 'partition.time.day-column': column 'dt' is derived by the"
                                + " writer and cannot be part of the primary key [id, dt]; put the"
                                + " time column in the key instead");
        // Without time partitioning, dt must be in the key again.
        assertThatThrownBy(() -> create(schema, Map.of()))
                .hasMessage(
                        "Invalid partition key: column 'dt' must be part of the primary key [id,"
                                + " ts], so that each key lives in one partition");
    }

    @Test
    void bulkWritesFillTheDerivedColumnsLikeUpserts() {
        Table bulk = keyedTable("bulk", Map.of());
        Table upserts = keyedTable("upserts", Map.of());
        Random random = new Random(11);
        List<DataFile> bulkFiles;
        List<DataFile> upsertFiles;
        try (BulkWrite b =
                        bulk.newBulkWrite()
                                .writeBufferSize(256 << 10)
                                .spillDirectory(dir.resolve("spill").toString())
                                .create();
                TableWrite u = upserts.newWrite().create()) {
            for (int i = 0; i < 5000; i++) {
                long id = random.nextInt(500);
                long ts = START + (long) (random.nextDouble() * SPAN) / 60_000 * 60_000;
                String v = "v" + i;
                b.write(row(RowKind.INSERT, id, ts, v));
                u.write(row(RowKind.INSERT, id, ts, v));
                model.put(List.of(id, ts), v);
            }
            bulkFiles = b.prepareCommit();
            upsertFiles = u.prepareCommit();
        }
        bulk.newAppend().addFiles(bulkFiles).commit();
        upserts.newAppend().addFiles(upsertFiles).commit();
        assertThat(bulkFiles).allMatch(f -> f.kind() == FileKind.BASE);
        Set<Partition> bulkPartitions = new TreeSet<>();
        bulkFiles.forEach(f -> bulkPartitions.add(f.partition()));
        Set<Partition> upsertPartitions = new TreeSet<>();
        upsertFiles.forEach(f -> upsertPartitions.add(f.partition()));
        assertThat(bulkPartitions).isEqualTo(upsertPartitions).hasSizeGreaterThan(3);
        assertThat(read(bulk, Expressions.alwaysTrue()))
                .isEqualTo(read(upserts, Expressions.alwaysTrue()))
                .isEqualTo(expected(r -> true));
    }

    private void create(Schema schema, Map<String, String> options) {
        Tables.create(dir.resolve("bad-" + options.hashCode()).toString(), schema, options);
    }

    // ---- the keyed table and its model

    record Row(long id, long ts, String v) {}

    private Table keyedTable(String name, Map<String, String> extra) {
        Map<String, String> options = new HashMap<>(extra);
        options.put("partition.time.column", "ts");
        options.put("partition.time.zone", "Europe/Berlin");
        options.put("bucket", "2");
        return Tables.create(
                dir.resolve(name).toString(),
                new Schema(KEYED, List.of("id", "ts"), List.of("dt")),
                options);
    }

    private static BinaryRow row(RowKind kind, long id, long ts, String v) {
        return BinaryRowWriter.toRow(KEYED, kind, id, Timestamp.ofMillis(ts), v, null);
    }

    private static LocalDate localDate(long millis) {
        return LocalDate.ofInstant(Instant.ofEpochMilli(millis), BERLIN);
    }

    private List<String> read(Table table, Expression filter) {
        List<String> rows = new ArrayList<>();
        for (List<Object> r : Rows.readAll(table.newScan().filter(filter).rows(), KEYED, false)) {
            Timestamp ts = (Timestamp) r.get(1);
            rows.add(r.get(0) + "@" + ts.millis() + "=" + r.get(2) + " " + r.get(3));
        }
        rows.sort(null);
        return rows;
    }

    private List<String> expected(Predicate<Row> filter) {
        List<String> rows = new ArrayList<>();
        model.forEach(
                (k, v) -> {
                    Row r = new Row(k.get(0), k.get(1), v);
                    if (filter.test(r)) {
                        rows.add(
                                k.get(0)
                                        + "@"
                                        + k.get(1)
                                        + "="
                                        + v
                                        + " "
                                        + localDate(k.get(1)).toEpochDay());
                    }
                });
        rows.sort(null);
        return rows;
    }

    private int compareKeys(List<Long> a, List<Long> b) {
        int c = Long.compare(a.get(0), b.get(0));
        return c != 0 ? c : Long.compare(a.get(1), b.get(1));
    }
}
