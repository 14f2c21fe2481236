package io.weir.partition;

import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.Timestamp;
import io.weir.options.TableOptions;
import io.weir.options.TimeGranularity;
import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Time partitions of rows against {@code java.time} as the independent model: the local date and
 * hour of every instant, around every offset change of zones with daylight saving (whole hours,
 * half hours, 45-minute offsets, Lord Howe's 30-minute change), fixed offsets, both timestamp
 * layouts, in time order and shuffled; the cached windows never span two periods; null times; the
 * periods prepared ahead; and no allocation per row.
 */
class TimePartitionerTest {
    private static final long HOUR = 3_600_000L;
    private static final List<String> ZONES =
            List.of(
                    "UTC",
                    "Europe/Berlin",
                    "America/New_York",
                    "Asia/Kolkata",
                    "America/St_Johns",
                    "Australia/Lord_Howe",
                    "Pacific/Chatham",
                    "Pacific/Apia",
                    "+05:45");

    @Test
    void periodsAreTheLocalDayAndHourOfJavaTimeAroundEveryOffsetChange() {
        for (String zone : ZONES) {
            List<Long> instants = instantsAroundTransitions(ZoneId.of(zone));
            for (TimeGranularity granularity : TimeGranularity.values()) {
                for (DataType timeType :
                        List.of(DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP_LTZ(6))) {
                    check(zone, granularity, timeType, instants);
                    List<Long> shuffled = new ArrayList<>(instants);
                    Collections.shuffle(shuffled, new Random(zone.hashCode()));
                    check(zone, granularity, timeType, shuffled);
                }
            }
        }
    }

    private static void check(
            String zone, TimeGranularity granularity, DataType timeType, List<Long> instants) {
        RowType type = rowType(timeType);
        TimePartitioning spec = spec(type, zone, granularity, 1);
        TimePartitioner partitioner = new TimePartitioner(spec, type.size());
        ZoneId zoneId = ZoneId.of(zone);
        for (long millis : instants) {
            BinaryRow row = BinaryRowWriter.toRow(type, 1L, new Timestamp(millis, 123), null, null);
            String at =
                    zone
                            + " "
                            + granularity
                            + " "
                            + timeType
                            + " at "
                            + Instant.ofEpochMilli(millis);
            long expected = referencePeriod(millis, zoneId, granularity);
            assertThat(partitioner.period(row)).as(at).isEqualTo(expected);
            // The window holds the instant, and both its ends are in the same period.
            assertThat(partitioner.windowStart()).as(at).isLessThanOrEqualTo(millis);
            assertThat(partitioner.windowEnd()).as(at).isGreaterThan(millis);
            assertThat(referencePeriod(partitioner.windowStart(), zoneId, granularity))
                    .as(at)
                    .isEqualTo(expected);
            assertThat(referencePeriod(partitioner.windowEnd() - 1, zoneId, granularity))
                    .as(at)
                    .isEqualTo(expected);
            // The derived columns, filled into a copy, and the partition's values.
            int id = partitioner.resolve(row);
            BinaryRow copy = row.copy();
            partitioner.fill(copy);
            BinaryRow byId = row.copy(); // as the flush fills rows, by partition id
            partitioner.fill(id, byId.bytes(), byId.offset());
            assertThat(byId).isEqualTo(copy);
            LocalDateTime local = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), zoneId);
            assertThat(copy.isNullAt(2)).isFalse();
            assertThat(copy.getInt(2)).as(at).isEqualTo((int) local.toLocalDate().toEpochDay());
            List<String> values = partitioner.partition(id).values();
            assertThat(values.get(0)).as(at).isEqualTo(local.toLocalDate().toString());
            if (granularity == TimeGranularity.HOUR) {
                assertThat(copy.getInt(3)).as(at).isEqualTo(local.getHour());
                assertThat(values.get(1)).as(at).isEqualTo(Integer.toString(local.getHour()));
            } else {
                assertThat(copy.isNullAt(3)).isTrue(); // not a derived column by day
            }
            // The period bounds used for pruning and expiry contain the instant.
            long[] bounds = spec.instantBounds(expected);
            assertThat(millis).as(at).isBetween(bounds[0], bounds[1] - 1);
            // ...and are exact: the first and the last instant of the period.
            assertThat(referencePeriod(bounds[0], zoneId, granularity)).isEqualTo(expected);
            assertThat(referencePeriod(bounds[0] - 1, zoneId, granularity)).isNotEqualTo(expected);
            assertThat(referencePeriod(bounds[1] - 1, zoneId, granularity)).isEqualTo(expected);
            assertThat(referencePeriod(bounds[1], zoneId, granularity)).isNotEqualTo(expected);
        }
    }

    /** Every 7 minutes from 3 h before to 3 h after each offset change of 2023 to 2025. */
    private static List<Long> instantsAroundTransitions(ZoneId zone) {
        List<Long> instants = new ArrayList<>();
        long from = Instant.parse("2023-01-01T00:00:00Z").toEpochMilli();
        long to = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
        ZoneOffsetTransition t = zone.getRules().nextTransition(Instant.ofEpochMilli(from));
        while (t != null && t.getInstant().toEpochMilli() < to) {
            long at = t.getInstant().toEpochMilli();
            for (long m = at - 3 * HOUR; m <= at + 3 * HOUR; m += 7 * 60_000) {
                instants.add(m);
            }
            instants.add(at - 1);
            instants.add(at);
            instants.add(at + 1);
            t = zone.getRules().nextTransition(t.getInstant());
        }
        Random random = new Random(42);
        for (int i = 0; i < 2000; i++) {
            // Any time between 1900 and 2100, before 1970 included.
            instants.add(-2_208_988_800_000L + (long) (random.nextDouble() * 6_311_433_600_000L));
        }
        return instants;
    }

    @Test
    void aNullTimeGoesToTheNullPartitionWithNullColumns() {
        RowType type = rowType(DataTypes.TIMESTAMP(3));
        TimePartitioner partitioner =
                new TimePartitioner(spec(type, "UTC", TimeGranularity.HOUR, 0), type.size());
        BinaryRow row = BinaryRowWriter.toRow(type, 1L, null, 5, 7);
        assertThat(partitioner.period(row)).isEqualTo(TimePartitioner.NULL_PERIOD);
        int id = partitioner.resolve(row);
        assertThat(partitioner.partition(id).values()).containsExactly(null, null);
        BinaryRow copy = row.copy();
        partitioner.fill(copy);
        assertThat(copy.isNullAt(2)).isTrue();
        assertThat(copy.isNullAt(3)).isTrue();
        BinaryRow byId = row.copy();
        partitioner.fill(id, byId.bytes(), byId.offset());
        assertThat(byId).isEqualTo(copy);
        assertThat(partitioner.resolve(row)).isEqualTo(id);
    }

    @Test
    void enteringAPeriodPreparesTheNextOnesAhead() {
        RowType type = rowType(DataTypes.TIMESTAMP(3));
        TimePartitioner partitioner =
                new TimePartitioner(
                        spec(type, "Europe/Berlin", TimeGranularity.DAY, 3), type.size());
        // 2024-03-31 is 23 hours long in Berlin: prepared as two windows of one partition.
        long day = Instant.parse("2024-03-29T12:00:00Z").toEpochMilli();
        int first =
                partitioner.resolve(
                        BinaryRowWriter.toRow(type, 1L, Timestamp.ofMillis(day), null, null));
        assertThat(partitioner.size()).isEqualTo(4);
        List<String> days = new ArrayList<>();
        for (int id = 0; id < partitioner.size(); id++) {
            days.add(partitioner.partition(id).values().get(0));
        }
        assertThat(days).containsExactly("2024-03-29", "2024-03-30", "2024-03-31", "2024-04-01");
        assertThat(first).isZero();
        // Rows of the prepared days resolve to their partitions without new ones...
        for (int d = 1; d <= 3; d++) {
            int id =
                    partitioner.resolve(
                            BinaryRowWriter.toRow(
                                    type,
                                    1L,
                                    Timestamp.ofMillis(day + d * 86_400_000L),
                                    null,
                                    null));
            assertThat(partitioner.partition(id).values().get(0))
                    .isEqualTo(LocalDate.parse("2024-03-29").plusDays(d).toString());
        }
        // ...and entering one prepares further.
        assertThat(partitioner.size()).isEqualTo(7);
    }

    @Test
    void resolvingAndFillingAllocateNothingPerRow() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        RowType type = rowType(DataTypes.TIMESTAMP_LTZ(3));
        TimePartitioner partitioner =
                new TimePartitioner(
                        spec(type, "America/New_York", TimeGranularity.HOUR, 1), type.size());
        BinaryRow row = BinaryRowWriter.toRow(type, 1L, Timestamp.ofMillis(0), null, null);
        BinaryRow copy = row.copy();
        int slot = row.fieldOffset(1);
        long start = Instant.parse("2024-11-02T00:00:00Z").toEpochMilli(); // a DST change ahead
        long checksum = run(partitioner, row, copy, slot, start, 100_000);
        long before = threads.getCurrentThreadAllocatedBytes();
        int rows = 2_000_000;
        checksum += run(partitioner, row, copy, slot, start + 100_000_000L, rows);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(checksum).isNotZero();
        // 2 M rows, 1 every 100 ms: 55 hours, one new window per hour (a few objects each).
        assertThat((double) allocated / rows)
                .as("bytes allocated per row (%s in total)", allocated)
                .isLessThan(0.5);
    }

    private static long run(
            TimePartitioner partitioner,
            BinaryRow row,
            BinaryRow copy,
            int slot,
            long start,
            int n) {
        long checksum = 0;
        for (int i = 0; i < n; i++) {
            io.weir.util.LittleEndian.putLong(row.bytes(), slot, start + i * 100L);
            checksum += partitioner.resolve(row);
            partitioner.fill(copy);
            checksum += copy.getInt(3);
        }
        return checksum;
    }

    static long referencePeriod(long millis, ZoneId zone, TimeGranularity granularity) {
        LocalDateTime local = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), zone);
        long day = local.toLocalDate().toEpochDay();
        return granularity == TimeGranularity.DAY ? day : day * 24 + local.getHour();
    }

    private static RowType rowType(DataType timeType) {
        return RowType.of(
                "id",
                DataTypes.BIGINT(),
                "ts",
                timeType,
                "dt",
                DataTypes.DATE(),
                "hr",
                DataTypes.INT());
    }

    private static TimePartitioning spec(
            RowType type, String zone, TimeGranularity granularity, int ahead) {
        List<String> keys =
                granularity == TimeGranularity.DAY ? List.of("dt") : List.of("dt", "hr");
        return TimePartitioning.of(
                new Schema(type, List.of(), keys),
                TableOptions.of(
                        Map.of(
                                "partition.time.column",
                                "ts",
                                "partition.time.granularity",
                                granularity.name(),
                                "partition.time.zone",
                                zone,
                                "partition.time.create-ahead",
                                Integer.toString(ahead))));
    }
}
