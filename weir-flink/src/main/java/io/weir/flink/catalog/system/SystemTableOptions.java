package io.weir.flink.catalog.system;

import io.weir.Table;
import io.weir.flink.table.WeirReadOptions;

import org.apache.flink.table.api.ValidationException;

import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The options a query may give a metadata system table in an {@code OPTIONS} hint: which snapshot
 * it describes ({@code scan.snapshot-id}, {@code scan.tag-name} or {@code scan.timestamp}, one of
 * them), for the tables that {@linkplain SystemTable#timeTravel() time travel}.
 */
final class SystemTableOptions {
    static final String SNAPSHOT_ID = WeirReadOptions.SCAN_SNAPSHOT_ID.key();
    static final String TAG_NAME = WeirReadOptions.SCAN_TAG_NAME.key();
    static final String TIMESTAMP = WeirReadOptions.SCAN_TIMESTAMP.key();
    private static final List<String> KEYS = List.of(SNAPSHOT_ID, TAG_NAME, TIMESTAMP);

    private SystemTableOptions() {}

    /**
     * Checks the options of a metadata system table.
     *
     * @throws ValidationException naming the system table and what is allowed
     */
    static Map<String, String> check(SystemTable kind, String name, Map<String, String> options) {
        Map<String, String> sorted = new TreeMap<>(options);
        List<String> allowed = kind.timeTravel() ? KEYS : List.of();
        for (String key : sorted.keySet()) {
            if (!allowed.contains(key)) {
                throw new ValidationException(
                        "Unsupported option '"
                                + key
                                + "' for system table "
                                + name
                                + (allowed.isEmpty()
                                        ? ": it takes no options"
                                        : ": it takes only " + allowed + ", one of them"));
            }
        }
        if (sorted.size() > 1) {
            throw new ValidationException(
                    "Cannot read system table "
                            + name
                            + " with options "
                            + sorted.keySet()
                            + ": choose one of "
                            + KEYS);
        }
        String id = sorted.get(SNAPSHOT_ID);
        if (id != null) {
            snapshotId(name, id);
        }
        String timestamp = sorted.get(TIMESTAMP);
        if (timestamp != null) {
            WeirReadOptions.parseTimestamp(timestamp, ZoneId.systemDefault());
        }
        return sorted;
    }

    /** The snapshot the options choose, -1 for the latest. */
    static long snapshotId(Table table, String name, Map<String, String> options) {
        String id = options.get(SNAPSHOT_ID);
        if (id != null) {
            return snapshotId(name, id);
        }
        String tag = options.get(TAG_NAME);
        if (tag != null) {
            return table.tags().get(tag).commitId();
        }
        String timestamp = options.get(TIMESTAMP);
        if (timestamp != null) {
            return table.snapshotAsOf(
                            WeirReadOptions.parseTimestamp(timestamp, ZoneId.systemDefault()))
                    .id();
        }
        return -1;
    }

    private static long snapshotId(String name, String text) {
        try {
            long id = Long.parseLong(text.trim());
            if (id >= 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new ValidationException(
                "Invalid value '"
                        + text
                        + "' for option '"
                        + SNAPSHOT_ID
                        + "' of system table "
                        + name
                        + ": expected a commit id >= 0");
    }
}
