package io.weir.commit;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.DataFileParser;
import io.weir.exceptions.CorruptFileException;
import io.weir.util.Json;
import io.weir.util.JsonFields;

import java.util.ArrayList;
import java.util.List;

/**
 * JSON codec of a {@link Commit}, the content of {@code _weir/commits/<id>.json}, with its data
 * files (docs/format.md §6).
 */
public final class CommitParser {
    static final String COMMIT_ID = "commit-id";
    static final String TIMESTAMP_MILLIS = "timestamp-millis";
    static final String KIND = "kind";
    static final String SCHEMA_ID = "schema-id";
    static final String WRITER_ID = "writer-id";
    static final String CHECKPOINT_ID = "checkpoint-id";
    static final String PROPERTIES = "properties";
    static final String ADDED = "added";
    static final String REMOVED = "removed";
    static final String BASE_COMMIT_ID = "base-commit-id";

    private CommitParser() {}

    public static String toJson(Commit commit) {
        return Json.document(
                gen -> {
                    gen.writeNumberField(COMMIT_ID, commit.id());
                    gen.writeNumberField(TIMESTAMP_MILLIS, commit.timestampMillis());
                    gen.writeStringField(KIND, commit.kind().name());
                    gen.writeNumberField(SCHEMA_ID, commit.schemaId());
                    Json.writeOptionalString(gen, WRITER_ID, commit.writerId());
                    gen.writeNumberField(CHECKPOINT_ID, commit.checkpointId());
                    Json.writeStringMap(gen, PROPERTIES, commit.properties());
                    gen.writeArrayFieldStart(ADDED);
                    for (DataFile f : commit.added()) {
                        DataFileParser.write(gen, f);
                    }
                    gen.writeEndArray();
                    Json.writeStrings(gen, REMOVED, commit.removed());
                    if (commit.baseCommitId() != commit.id() - 1) {
                        gen.writeNumberField(BASE_COMMIT_ID, commit.baseCommitId());
                    }
                });
    }

    /**
     * Parses a commit file.
     *
     * @param file where the text came from, named in errors
     * @throws CorruptFileException if the text is malformed, has another format version, or a field
     *     is missing or invalid
     */
    public static Commit fromJson(String file, String json) {
        JsonFields root = Json.parse(file, json);
        long id = root.requiredLong(COMMIT_ID);
        if (id < 1) {
            throw root.invalid(COMMIT_ID, "must be >= 1, got " + id);
        }
        List<DataFile> added = new ArrayList<>();
        for (JsonFields f : root.objectList(ADDED)) {
            added.add(DataFileParser.read(f));
        }
        List<String> removed = root.stringList(REMOVED);
        for (int i = 0; i < removed.size(); i++) {
            if (removed.get(i) == null) {
                throw root.invalid(REMOVED + "[" + i + "]", "must not be null");
            }
        }
        CommitKind kind = root.requiredEnum(KIND, CommitKind.class);
        long base = root.optionalLong(BASE_COMMIT_ID, id - 1);
        if (base < 0 || base >= id) {
            throw root.invalid(BASE_COMMIT_ID, "must be 0 to " + (id - 1) + ", got " + base);
        }
        if (base != id - 1
                && (kind != CommitKind.ROLLBACK || !added.isEmpty() || !removed.isEmpty())) {
            throw root.invalid(
                    BASE_COMMIT_ID, "only a ROLLBACK without added or removed files may have one");
        }
        return new Commit(
                id,
                root.requiredLong(TIMESTAMP_MILLIS),
                kind,
                root.requiredInt(SCHEMA_ID),
                root.optionalString(WRITER_ID),
                root.optionalLong(CHECKPOINT_ID, -1),
                added,
                removed,
                root.stringMap(PROPERTIES),
                base);
    }
}
