package io.weir.partition;

import io.weir.Partition;
import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.exceptions.ValidationException;
import io.weir.options.PartitionOptions;
import io.weir.options.TableOptions;
import io.weir.options.TimeGranularity;
import io.weir.types.DataType;
import io.weir.types.RowType;
import io.weir.types.TypeRoot;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Objects;

/**
 * A table's time-based partitioning: the writer derives each row's partition from a timestamp
 * column, by local day ({@code dt}) or local hour ({@code dt}, {@code hr}) in a time zone, and
 * fills the derived partition columns itself. Configured by the table options {@code
 * partition.time.*} ({@link PartitionOptions}); see docs/partitions.md.
 *
 * <p>A row's <em>period</em> is a number: the local epoch day for {@link TimeGranularity#DAY},
 * {@code localEpochDay * 24 + localHour} for {@link TimeGranularity#HOUR}. The derived columns hold
 * the period's date (DATE) and hour (INT). A TIMESTAMP_LTZ value is an instant; a TIMESTAMP value's
 * epoch millis are taken as a UTC instant (its own date and hour in the zone {@code UTC}).
 *
 * <p>Immutable and serializable (engines ship it to their tasks). The per-row work is done by
 * {@link TimePartitioner}.
 */
public final class TimePartitioning implements Serializable {
    private static final long serialVersionUID = 1L;
    static final long MILLIS_PER_HOUR = 3_600_000L;
    static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long MAX_OFFSET_MILLIS = 18 * MILLIS_PER_HOUR;

    private final String timeColumn;
    private final int timePosition;
    private final boolean compactTime;
    private final boolean timeIsKey;
    private final TimeGranularity granularity;
    private final ZoneId zone;
    private final String dayColumn;
    private final int dayPosition;
    private final String hourColumn;
    private final int hourPosition;
    private final List<String> partitionKeys;
    private final int createAhead;
    private final Duration expirationTime;

    private TimePartitioning(Schema schema, TableOptions options) {
        RowType rowType = schema.rowType();
        this.timeColumn = options.get(PartitionOptions.TIME_COLUMN);
        this.granularity = options.get(PartitionOptions.TIME_GRANULARITY);
        this.zone = ZoneId.of(options.get(PartitionOptions.TIME_ZONE));
        this.dayColumn = options.get(PartitionOptions.DAY_COLUMN);
        this.hourColumn =
                granularity == TimeGranularity.HOUR
                        ? options.get(PartitionOptions.HOUR_COLUMN)
                        : null;
        this.partitionKeys = schema.partitionKeys();
        this.createAhead = options.get(PartitionOptions.CREATE_AHEAD);
        this.expirationTime = options.get(PartitionOptions.EXPIRATION_TIME);

        this.timePosition = rowType.indexOf(timeColumn);
        ValidationException.check(
                timePosition >= 0,
                "Invalid option 'partition.time.column': column '%s' does not exist (columns: %s)",
                timeColumn,
                rowType.names());
        DataType timeType = rowType.type(timePosition);
        ValidationException.check(
                timeType.root() == TypeRoot.TIMESTAMP || timeType.root() == TypeRoot.TIMESTAMP_LTZ,
                "Invalid option 'partition.time.column': column '%s' has type %s, expected a"
                        + " TIMESTAMP or TIMESTAMP_LTZ",
                timeColumn,
                timeType);
        this.compactTime = timeType.isFixedLength();
        this.timeIsKey = schema.primaryKey().contains(timeColumn);
        this.dayPosition = derivedColumn(schema, "partition.time.day-column", dayColumn, "DATE");
        this.hourPosition =
                hourColumn == null
                        ? -1
                        : derivedColumn(schema, "partition.time.hour-column", hourColumn, "INT");
        ValidationException.check(
                !Objects.equals(dayColumn, hourColumn),
                "Invalid time partitioning: the day and hour columns are both '%s'",
                dayColumn);
        if (schema.hasPrimaryKey()) {
            ValidationException.check(
                    schema.primaryKey().contains(timeColumn),
                    "Invalid time partitioning: column '%s' must be part of the primary key %s, so"
                            + " that each key lives in one partition",
                    timeColumn,
                    schema.primaryKey());
        }
    }

    private static int derivedColumn(Schema schema, String option, String name, String type) {
        RowType rowType = schema.rowType();
        int pos = rowType.indexOf(name);
        ValidationException.check(
                pos >= 0,
                "Invalid option '%s': column '%s' does not exist (columns: %s); declare it as a %s"
                        + " partition key",
                option,
                name,
                rowType.names(),
                type);
        ValidationException.check(
                rowType.type(pos).root() == TypeRoot.valueOf(type),
                "Invalid option '%s': column '%s' has type %s, expected %s",
                option,
                name,
                rowType.type(pos),
                type);
        ValidationException.check(
                schema.partitionKeys().contains(name),
                "Invalid option '%s': column '%s' must be a partition key (partition keys: %s)",
                option,
                name,
                schema.partitionKeys());
        ValidationException.check(
                !schema.primaryKey().contains(name),
                "Invalid option '%s': column '%s' is derived by the writer and cannot be part of"
                        + " the primary key %s; put the time column in the key instead",
                option,
                name,
                schema.primaryKey());
        return pos;
    }

    /**
     * The time partitioning of a table, or null if it has none ({@code partition.time.column}
     * unset).
     *
     * @throws ValidationException if the options do not fit the schema
     */
    public static TimePartitioning of(Schema schema, TableOptions options) {
        if (options.get(PartitionOptions.TIME_COLUMN) == null) {
            ValidationException.check(
                    options.get(PartitionOptions.EXPIRATION_TIME) == null,
                    "Invalid option 'partition.expiration-time': partitions expire by time, so it"
                            + " needs 'partition.time.column'");
            for (String key : options.toMap().keySet()) {
                ValidationException.check(
                        !key.startsWith("partition."),
                        "Invalid option '%s': it configures time partitions, which need"
                                + " 'partition.time.column'",
                        key);
            }
            return null;
        }
        return new TimePartitioning(schema, options);
    }

    /** The time partitioning of a table, or null if it has none. */
    public static TimePartitioning of(TableMetadata metadata) {
        return of(metadata.schema(), metadata.options());
    }

    /**
     * Checks the partition keys of a table against its primary key: every partition key that the
     * writer does not derive must be part of the primary key, so that a key lives in one partition.
     */
    public static void checkPartitionKeys(Schema schema, TableOptions options) {
        TimePartitioning time = of(schema, options);
        if (!schema.hasPrimaryKey()) {
            return;
        }
        for (String key : schema.partitionKeys()) {
            ValidationException.check(
                    schema.primaryKey().contains(key) || (time != null && time.isDerived(key)),
                    "Invalid partition key: column '%s' must be part of the primary key %s, so that"
                            + " each key lives in one partition",
                    key,
                    schema.primaryKey());
        }
    }

    public String timeColumn() {
        return timeColumn;
    }

    /** The position of the time column in the row. */
    public int timePosition() {
        return timePosition;
    }

    /** Whether the time column is part of the primary key (then it is never null). */
    public boolean timeIsKey() {
        return timeIsKey;
    }

    /** Whether the time column is a compact timestamp (precision up to 3: millis in the slot). */
    public boolean compactTime() {
        return compactTime;
    }

    public TimeGranularity granularity() {
        return granularity;
    }

    public ZoneId zone() {
        return zone;
    }

    public String dayColumn() {
        return dayColumn;
    }

    public int dayPosition() {
        return dayPosition;
    }

    /** The hour column, or null for partitions by day. */
    public String hourColumn() {
        return hourColumn;
    }

    /** The position of the hour column in the row, or -1 for partitions by day. */
    public int hourPosition() {
        return hourPosition;
    }

    /** Whether the writer fills this column (the day or hour column). */
    public boolean isDerived(String column) {
        return column.equals(dayColumn) || column.equals(hourColumn);
    }

    /** Whether every partition key is derived: the partition is a function of the time alone. */
    public boolean derivesAllPartitionKeys() {
        return partitionKeys.size() == (hourColumn == null ? 1 : 2);
    }

    /** How many periods after the current one a writer prepares ahead. */
    public int createAhead() {
        return createAhead;
    }

    /** How long after its period ended a partition is dropped; null: never. */
    public Duration expirationTime() {
        return expirationTime;
    }

    /** The length of a period in local time, in millis. */
    public long periodMillis() {
        return granularity == TimeGranularity.DAY ? MILLIS_PER_DAY : MILLIS_PER_HOUR;
    }

    /** The period of an instant (epoch millis). Allocates: for cold paths only. */
    public long periodOf(long epochMillis) {
        long offset =
                zone.getRules().getOffset(Instant.ofEpochMilli(epochMillis)).getTotalSeconds();
        return Math.floorDiv(epochMillis + offset * 1000L, periodMillis());
    }

    /** The epoch day of a period's date. */
    public long epochDay(long period) {
        return granularity == TimeGranularity.DAY ? period : Math.floorDiv(period, 24);
    }

    /** The local hour (0 to 23) of a period, or 0 for periods of a day. */
    public int hour(long period) {
        return granularity == TimeGranularity.DAY ? 0 : (int) Math.floorMod(period, 24);
    }

    /**
     * The period of a partition, from the values of its derived columns, or null if they are null
     * or do not parse (e.g. a partition written before time partitioning was configured).
     */
    public Long period(Partition partition) {
        String day = partition.values().get(partitionKeys.indexOf(dayColumn));
        if (day == null) {
            return null;
        }
        try {
            long epochDay = LocalDate.parse(day).toEpochDay();
            if (hourColumn == null) {
                return epochDay;
            }
            String hour = partition.values().get(partitionKeys.indexOf(hourColumn));
            int h = hour == null ? -1 : Integer.parseInt(hour);
            return h < 0 || h > 23 ? null : epochDay * 24 + h;
        } catch (DateTimeParseException | NumberFormatException e) {
            return null;
        }
    }

    /**
     * The first and the end of the instants (epoch millis) whose period is {@code period}: each
     * such instant lies in {@code [result[0], result[1])}, and both ends are reached. Where the
     * zone's offset changes within the period, the instants may form two ranges (an hour that
     * occurs twice); the result spans both.
     */
    public long[] instantBounds(long period) {
        long localStart = period * periodMillis();
        long localEnd = localStart + periodMillis();
        ZoneRules rules = zone.getRules();
        // An instant t of the period has t + offset(t) in [localStart, localEnd); |offset| <= 18 h,
        // so only the offsets in force within 18 h of the period matter. Per range of constant
        // offset o, the period's instants are [localStart - o, localEnd - o) within the range.
        long to = localEnd + MAX_OFFSET_MILLIS;
        long segmentStart = localStart - MAX_OFFSET_MILLIS;
        long offset = rules.getOffset(Instant.ofEpochMilli(segmentStart)).getTotalSeconds() * 1000L;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        ZoneOffsetTransition t = rules.nextTransition(Instant.ofEpochMilli(segmentStart));
        while (true) {
            long transition = t == null ? Long.MAX_VALUE : t.toEpochSecond() * 1000L;
            long segmentEnd = Math.min(transition, to);
            long lo = Math.max(localStart - offset, segmentStart);
            long hi = Math.min(localEnd - offset, segmentEnd);
            if (lo < hi) {
                first = Math.min(first, lo);
                last = Math.max(last, hi);
            }
            if (transition >= to) {
                break;
            }
            segmentStart = transition;
            offset = t.getOffsetAfter().getTotalSeconds() * 1000L;
            t = rules.nextTransition(t.getInstant());
        }
        if (first > last) { // a local hour skipped by a change: no instant has it
            return new long[] {localStart - offset, localStart - offset};
        }
        return new long[] {first, last};
    }

    /** The partition values of a period, by the table's partition keys ({@code null} elsewhere). */
    public String[] values(long period) {
        String[] values = new String[partitionKeys.size()];
        values[partitionKeys.indexOf(dayColumn)] =
                LocalDate.ofEpochDay(epochDay(period)).toString();
        if (hourColumn != null) {
            values[partitionKeys.indexOf(hourColumn)] = Integer.toString(hour(period));
        }
        return values;
    }

    @Override
    public String toString() {
        return "TimePartitioning("
                + timeColumn
                + " by "
                + granularity.name().toLowerCase(java.util.Locale.ROOT)
                + " in "
                + zone
                + " -> "
                + (hourColumn == null ? dayColumn : dayColumn + ", " + hourColumn)
                + ")";
    }
}
