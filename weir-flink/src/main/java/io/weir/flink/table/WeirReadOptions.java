package io.weir.flink.table;

import io.weir.Table;
import io.weir.exceptions.ValidationException;
import io.weir.flink.source.StartMode;
import io.weir.flink.source.WeirSource;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The read options of a Weir table in Flink SQL (in {@code WITH (...)} or in an {@code OPTIONS}
 * table hint), as typed Flink options. All are optional. See {@code docs/flink-read.md}.
 *
 * <ul>
 *   <li>{@code scan.mode}: {@code full} (default), {@code latest} or {@code from-snapshot}.
 *   <li>{@code scan.snapshot-id}: the snapshot to read ({@code full}), or the first commit whose
 *       changes are read ({@code from-snapshot}).
 *   <li>{@code scan.tag-name}: the snapshot of a tag ({@code full}).
 *   <li>{@code scan.timestamp}: the snapshot as of this time ({@code full}), or the changes of the
 *       commits made at or after it ({@code from-snapshot}).
 *   <li>{@code scan.incremental.between}: {@code 'from,to'}: the net changes after commit {@code
 *       from} up to commit {@code to}; bounded, also in streaming mode.
 *   <li>{@code scan.discovery-interval}: how often a streaming read looks for new commits.
 *   <li>{@code scan.consumer-id}, {@code scan.lease.ttl}, {@code scan.lease.enabled}: the read's
 *       snapshot lease (docs/table-services.md).
 * </ul>
 */
public final class WeirReadOptions {
    private WeirReadOptions() {}

    public static final ConfigOption<StartMode> SCAN_MODE =
            ConfigOptions.key("scan.mode")
                    .enumType(StartMode.class)
                    .defaultValue(StartMode.FULL)
                    .withDescription(
                            "Where a read starts: 'full' reads a snapshot and, in streaming mode,"
                                    + " then the changes of later commits; 'latest' reads only the"
                                    + " changes of commits made after a streaming job starts (in"
                                    + " batch: the latest snapshot); 'from-snapshot' reads the"
                                    + " changes from 'scan.snapshot-id' or 'scan.timestamp' on.");

    public static final ConfigOption<Long> SCAN_SNAPSHOT_ID =
            ConfigOptions.key("scan.snapshot-id")
                    .longType()
                    .noDefaultValue()
                    .withDescription(
                            "With 'full': the commit whose snapshot is read (time travel). With"
                                    + " 'from-snapshot': the first commit whose changes are read.");

    public static final ConfigOption<String> SCAN_TAG_NAME =
            ConfigOptions.key("scan.tag-name")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Read the snapshot of this tag (time travel, with 'full'): the tag is"
                                    + " resolved to its commit when the query is planned, and its"
                                    + " snapshot stays readable after that commit expired.");

    public static final ConfigOption<String> SCAN_TIMESTAMP =
            ConfigOptions.key("scan.timestamp")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "With 'full': read the snapshot as of this time (the latest commit at or"
                                    + " before it). With 'from-snapshot': read the changes of the"
                                    + " commits made at or after it. Epoch milliseconds, an instant"
                                    + " with offset ('2024-05-01T10:00:00Z'), or a local date-time"
                                    + " ('2024-05-01 10:00:00[.fff]') in the JVM's time zone.");

    public static final ConfigOption<String> SCAN_INCREMENTAL_BETWEEN =
            ConfigOptions.key("scan.incremental.between")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "'from,to': read the net changes after commit 'from' up to and including"
                                    + " commit 'to' (+I, -U, +U, -D). Bounded, also in streaming"
                                    + " mode.");

    public static final ConfigOption<Duration> SCAN_DISCOVERY_INTERVAL =
            ConfigOptions.key("scan.discovery-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription("How often a streaming read looks for new commits.");

    public static final ConfigOption<String> SCAN_CONSUMER_ID =
            ConfigOptions.key("scan.consumer-id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The id of the snapshot lease by which the read keeps the snapshots it"
                                    + " still needs from expiring (letters, digits, '.', '_', '-')."
                                    + " Two reads of one table need two ids. Default: minted when"
                                    + " the job starts without state and kept in its checkpoints.");

    public static final ConfigOption<Duration> SCAN_LEASE_TTL =
            ConfigOptions.key("scan.lease.ttl")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "How long the read's lease keeps snapshots without being renewed: the"
                                    + " longest outage after which a stopped streaming job still"
                                    + " resumes where it stopped. Renewed every third of it and on"
                                    + " each completed checkpoint. Default: 1 d for streaming reads,"
                                    + " 1 h for bounded reads.");

    public static final ConfigOption<Boolean> SCAN_LEASE_ENABLED =
            ConfigOptions.key("scan.lease.enabled")
                    .booleanType()
                    .noDefaultValue()
                    .withDescription(
                            "Whether the read leases the snapshots it needs (a file under"
                                    + " _weir/consumers/). Default: true for streaming reads, which"
                                    + " may run for months; false for bounded reads, which need no"
                                    + " write access and are safe without a lease while they finish"
                                    + " within 'snapshot.time-retained'. Without a lease, snapshot"
                                    + " expiry may delete files a longer read still needs.");

    /** Every read option, for a factory's {@code optionalOptions()}. */
    public static Set<ConfigOption<?>> options() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>();
        options.add(SCAN_MODE);
        options.add(SCAN_SNAPSHOT_ID);
        options.add(SCAN_TAG_NAME);
        options.add(SCAN_TIMESTAMP);
        options.add(SCAN_INCREMENTAL_BETWEEN);
        options.add(SCAN_DISCOVERY_INTERVAL);
        options.add(SCAN_CONSUMER_ID);
        options.add(SCAN_LEASE_TTL);
        options.add(SCAN_LEASE_ENABLED);
        return options;
    }

    /**
     * Sets the read options found in {@code options} (other keys are ignored) on a source builder.
     * Combinations are checked when the source is built.
     *
     * @throws ValidationException naming the option whose value is invalid
     */
    public static WeirSource.Builder applyTo(
            WeirSource.Builder builder, Map<String, String> options) {
        Configuration config = Configuration.fromMap(options);
        builder.startMode(get(config, SCAN_MODE));
        Long snapshotId = get(config, SCAN_SNAPSHOT_ID);
        if (snapshotId != null) {
            ValidationException.check(
                    snapshotId >= 0,
                    "Invalid value %s for option '%s': must be >= 0",
                    snapshotId,
                    SCAN_SNAPSHOT_ID.key());
            builder.snapshotId(snapshotId);
        }
        String timestamp = get(config, SCAN_TIMESTAMP);
        if (timestamp != null) {
            builder.timestamp(parseTimestamp(timestamp, ZoneId.systemDefault()));
        }
        String between = get(config, SCAN_INCREMENTAL_BETWEEN);
        if (between != null) {
            long[] range = parseBetween(between);
            builder.incrementalBetween(range[0], range[1]);
        }
        builder.discoveryInterval(get(config, SCAN_DISCOVERY_INTERVAL));
        String consumerId = get(config, SCAN_CONSUMER_ID);
        if (consumerId != null) {
            builder.consumerId(consumerId);
        }
        Duration leaseTtl = get(config, SCAN_LEASE_TTL);
        if (leaseTtl != null) {
            builder.leaseTtl(leaseTtl);
        }
        Boolean leases = get(config, SCAN_LEASE_ENABLED);
        if (leases != null) {
            builder.leases(leases);
        }
        return builder;
    }

    /**
     * The options with {@code scan.tag-name} replaced by the {@code scan.snapshot-id} of its commit
     * (a tag is resolved when a query is planned); the options themselves if they name no tag.
     *
     * @throws ValidationException if the tag does not exist, or a snapshot id is given too
     */
    public static Map<String, String> resolveTag(Table table, Map<String, String> options) {
        String tag = options.get(SCAN_TAG_NAME.key());
        if (tag == null) {
            return options;
        }
        ValidationException.check(
                !options.containsKey(SCAN_SNAPSHOT_ID.key())
                        && !options.containsKey(SCAN_TIMESTAMP.key()),
                "Cannot read table %s both at tag '%s' and at a snapshot id or timestamp: choose"
                        + " one",
                table.location(),
                tag);
        Map<String, String> resolved = new java.util.HashMap<>(options);
        resolved.remove(SCAN_TAG_NAME.key());
        resolved.put(SCAN_SNAPSHOT_ID.key(), Long.toString(table.tags().get(tag).commitId()));
        return resolved;
    }

    /** Whether the options ask for a bounded change range. */
    static boolean isIncremental(Map<String, String> options) {
        return options.containsKey(SCAN_INCREMENTAL_BETWEEN.key());
    }

    /** The start mode the options ask for. */
    static StartMode startMode(Map<String, String> options) {
        return get(Configuration.fromMap(options), SCAN_MODE);
    }

    /**
     * Epoch millis, an ISO instant or offset date-time, or a local date-time (or date) in {@code
     * zone}.
     */
    public static long parseTimestamp(String text, ZoneId zone) {
        String t = text.trim();
        try {
            if (t.matches("-?\\d+")) {
                return Long.parseLong(t);
            }
            String iso = t.replace(' ', 'T');
            if (iso.endsWith("Z") || iso.matches(".*T.*[+-]\\d\\d:?\\d\\d$")) {
                return iso.endsWith("Z")
                        ? Instant.parse(iso).toEpochMilli()
                        : OffsetDateTime.parse(iso).toInstant().toEpochMilli();
            }
            if (iso.contains("T")) {
                return LocalDateTime.parse(iso).atZone(zone).toInstant().toEpochMilli();
            }
            return LocalDate.parse(iso).atStartOfDay(zone).toInstant().toEpochMilli();
        } catch (DateTimeException | NumberFormatException e) {
            throw new ValidationException(
                    "Invalid value '"
                            + text
                            + "' for option '"
                            + SCAN_TIMESTAMP.key()
                            + "': expected epoch milliseconds, '2024-05-01 10:00:00[.fff]' or"
                            + " '2024-05-01T10:00:00Z'",
                    e);
        }
    }

    static long[] parseBetween(String text) {
        String[] parts = text.split(",");
        try {
            if (parts.length == 2) {
                return new long[] {
                    Long.parseLong(parts[0].trim()), Long.parseLong(parts[1].trim())
                };
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new ValidationException(
                "Invalid value '"
                        + text
                        + "' for option '"
                        + SCAN_INCREMENTAL_BETWEEN.key()
                        + "': expected two commit ids 'from,to', e.g. '5,9'");
    }

    private static <T> T get(Configuration config, ConfigOption<T> option) {
        try {
            return config.get(option);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    "Invalid value for option '" + option.key() + "': " + e.getMessage(), e);
        }
    }
}
