package io.weir.commit;

import io.weir.SnapshotLease;
import io.weir.exceptions.CorruptFileException;
import io.weir.util.Json;
import io.weir.util.JsonFields;

/**
 * JSON codec of a reader's lease, {@code _weir/consumers/<consumer id>.json} (docs/format.md §6.7).
 */
final class LeaseParser {
    static final String CONSUMER_ID = "consumer-id";
    static final String COMMIT_ID = "commit-id";
    static final String EXPIRES_MILLIS = "expires-millis";

    private LeaseParser() {}

    static String toJson(SnapshotLease lease) {
        return Json.document(
                gen -> {
                    gen.writeStringField(CONSUMER_ID, lease.consumerId());
                    gen.writeNumberField(COMMIT_ID, lease.commitId());
                    gen.writeNumberField(EXPIRES_MILLIS, lease.expiresMillis());
                });
    }

    /**
     * Parses a lease file.
     *
     * @throws CorruptFileException if the text is malformed or a field is missing or invalid
     */
    static SnapshotLease fromJson(String file, String json) {
        JsonFields root = Json.parse(file, json);
        String consumerId = root.requiredString(CONSUMER_ID);
        long commitId = root.requiredLong(COMMIT_ID);
        try {
            return new SnapshotLease(consumerId, commitId, root.requiredLong(EXPIRES_MILLIS));
        } catch (IllegalArgumentException e) {
            throw new CorruptFileException(file, e.getMessage());
        }
    }
}
