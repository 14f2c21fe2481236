package io.weir.commit;

import io.weir.WriterLease;
import io.weir.exceptions.CorruptFileException;
import io.weir.util.Json;
import io.weir.util.JsonFields;

/** JSON codec of a writer's lease, {@code _weir/writers/<writer id>.json} (docs/format.md §6.7). */
final class WriterLeaseParser {
    static final String WRITER_ID = "writer-id";
    static final String OLDEST_FILE_MILLIS = "oldest-file-millis";
    static final String EXPIRES_MILLIS = "expires-millis";

    private WriterLeaseParser() {}

    static String toJson(WriterLease lease) {
        return Json.document(
                gen -> {
                    gen.writeStringField(WRITER_ID, lease.writerId());
                    gen.writeNumberField(OLDEST_FILE_MILLIS, lease.oldestFileMillis());
                    gen.writeNumberField(EXPIRES_MILLIS, lease.expiresMillis());
                });
    }

    /**
     * Parses a writer lease file.
     *
     * @throws CorruptFileException if the text is malformed or a field is missing or invalid
     */
    static WriterLease fromJson(String file, String json) {
        JsonFields root = Json.parse(file, json);
        String writerId = root.requiredString(WRITER_ID);
        long oldest = root.requiredLong(OLDEST_FILE_MILLIS);
        try {
            return new WriterLease(writerId, oldest, root.requiredLong(EXPIRES_MILLIS));
        } catch (IllegalArgumentException e) {
            throw new CorruptFileException(file, e.getMessage());
        }
    }
}
