package io.weir.options;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

/**
 * The table options of time-based partitions and partition expiry (docs/partitions.md). Part of
 * {@link TableOptions#ALL}; declared apart to keep each options class about one concern.
 */
public final class PartitionOptions {
    private PartitionOptions() {}

    public static final ConfigOption<String> TIME_COLUMN =
            ConfigOption.key("partition.time.column")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A TIMESTAMP or TIMESTAMP_LTZ column from which the writer derives the"
                                    + " time partition of each row: it fills the day column (and,"
                                    + " by hour, the hour column), which must be partition keys."
                                    + " Values written to those columns are replaced. Tables with a"
                                    + " primary key must have this column in it. See"
                                    + " docs/partitions.md.");

    public static final ConfigOption<TimeGranularity> TIME_GRANULARITY =
            ConfigOption.key("partition.time.granularity")
                    .enumType(TimeGranularity.class)
                    .defaultValue(TimeGranularity.DAY)
                    .withDescription(
                            "The period of a time partition: a local day (the day column), or a"
                                    + " local hour (the day and the hour columns).");

    public static final ConfigOption<String> TIME_ZONE =
            ConfigOption.key("partition.time.zone")
                    .stringType()
                    .defaultValue("UTC")
                    .checking(
                            PartitionOptions::isZone,
                            "must be a time zone id such as 'UTC',"
                                    + " '+08:00' or 'Europe/Berlin'")
                    .withDescription(
                            "The time zone of the local day and hour of a time partition. A"
                                    + " TIMESTAMP_LTZ value is an instant; a TIMESTAMP value is"
                                    + " taken as a UTC date-time (so with the default 'UTC' its own"
                                    + " date and hour are its partition).");

    public static final ConfigOption<String> DAY_COLUMN =
            ConfigOption.key("partition.time.day-column")
                    .stringType()
                    .defaultValue("dt")
                    .withDescription(
                            "Time partitions: the DATE column, a partition key, that the writer"
                                    + " fills with the local date of partition.time.column.");

    public static final ConfigOption<String> HOUR_COLUMN =
            ConfigOption.key("partition.time.hour-column")
                    .stringType()
                    .defaultValue("hr")
                    .withDescription(
                            "Time partitions by hour: the INT column, a partition key, that the"
                                    + " writer fills with the local hour (0 to 23) of"
                                    + " partition.time.column.");

    public static final ConfigOption<Integer> CREATE_AHEAD =
            ConfigOption.key("partition.time.create-ahead")
                    .intType()
                    .defaultValue(1)
                    .checking(v -> v >= 0 && v <= 1000, "must be between 0 and 1000")
                    .withDescription(
                            "Time partitions: a writer prepares the partitions of this many periods"
                                    + " after the current one ahead of time (window, values,"
                                    + " path), so that crossing into the next day or hour costs no"
                                    + " time-zone computation and no allocation. Partitions exist"
                                    + " through their files: a prepared partition without rows has"
                                    + " none and is not listed.");

    public static final ConfigOption<Duration> EXPIRATION_TIME =
            ConfigOption.key("partition.expiration-time")
                    .durationType()
                    .noDefaultValue()
                    .checking(v -> v.toMillis() >= 1, "must be positive")
                    .withDescription(
                            "Time partitions: a partition is dropped once its whole period ended"
                                    + " longer ago than this, all its files removed in one CLEAN"
                                    + " commit (old snapshots keep them until snapshot expiry). By"
                                    + " table.expirePartitions(), 'weir clean', and the ingestion"
                                    + " job (unless write-only). Unset: partitions never expire.");

    public static final ConfigOption<Duration> EXPIRATION_CHECK_INTERVAL =
            ConfigOption.key("partition.expiration-check-interval")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .checking(v -> v.toMillis() >= 1, "must be positive")
                    .withDescription(
                            "How often the ingestion job looks for expired partitions (with"
                                    + " partition.expiration-time set).");

    /** The options of this class, in documentation order. */
    static final List<ConfigOption<?>> ALL =
            List.of(
                    TIME_COLUMN,
                    TIME_GRANULARITY,
                    TIME_ZONE,
                    DAY_COLUMN,
                    HOUR_COLUMN,
                    CREATE_AHEAD,
                    EXPIRATION_TIME,
                    EXPIRATION_CHECK_INTERVAL);

    private static boolean isZone(String id) {
        try {
            ZoneId.of(id);
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }
}
