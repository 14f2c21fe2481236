package io.weir.commit;

import io.weir.exceptions.CorruptFileException;
import io.weir.util.Json;
import io.weir.util.JsonFields;

/**
 * JSON codec of the expiry marker, {@code _weir/expired.json}: the earliest retained commit, below
 * which snapshots and commits are expired (docs/format.md §6.7).
 */
final class ExpiryMarkerParser {
    static final String EARLIEST_RETAINED_COMMIT = "earliest-retained-commit";
    static final String TIMESTAMP_MILLIS = "timestamp-millis";

    private ExpiryMarkerParser() {}

    static String toJson(long earliestRetainedCommit, long timestampMillis) {
        return Json.document(
                gen -> {
                    gen.writeNumberField(EARLIEST_RETAINED_COMMIT, earliestRetainedCommit);
                    gen.writeNumberField(TIMESTAMP_MILLIS, timestampMillis);
                });
    }

    /**
     * The earliest retained commit.
     *
     * @throws CorruptFileException if the text is malformed or the id is not positive
     */
    static long fromJson(String file, String json) {
        JsonFields root = Json.parse(file, json);
        long earliest = root.requiredLong(EARLIEST_RETAINED_COMMIT);
        if (earliest < 1) {
            throw root.invalid(EARLIEST_RETAINED_COMMIT, "must be >= 1, got " + earliest);
        }
        return earliest;
    }
}
