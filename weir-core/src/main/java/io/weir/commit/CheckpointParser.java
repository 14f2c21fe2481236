package io.weir.commit;

import io.weir.DataFile;
import io.weir.DataFileParser;
import io.weir.exceptions.CorruptFileException;
import io.weir.util.Json;
import io.weir.util.JsonFields;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON codec of a checkpoint, {@code _weir/checkpoints/<id>.json}: the full {@link TableState} as
 * of one commit (docs/format.md §6).
 */
public final class CheckpointParser {
    static final String COMMIT_ID = "commit-id";
    static final String TIMESTAMP_MILLIS = "timestamp-millis";
    static final String SCHEMA_ID = "schema-id";
    static final String LAST_SEQUENCE = "last-sequence";
    static final String WRITERS = "writers";
    static final String CHECKPOINT_ID = "checkpoint-id";
    static final String FILES = "files";

    private CheckpointParser() {}

    public static String toJson(TableState state) {
        return toJson(state, gen -> {});
    }

    /** A checkpoint document with more fields after the state's (a tag's, §6.8). */
    static String toJson(TableState state, Json.Body more) {
        return Json.document(
                gen -> {
                    gen.writeNumberField(COMMIT_ID, state.commitId());
                    gen.writeNumberField(TIMESTAMP_MILLIS, state.timestampMillis());
                    gen.writeNumberField(SCHEMA_ID, state.schemaId());
                    gen.writeNumberField(LAST_SEQUENCE, state.lastSequence());
                    gen.writeObjectFieldStart(WRITERS);
                    for (Map.Entry<String, WriterCheckpoint> e :
                            new TreeMap<>(state.writers()).entrySet()) {
                        gen.writeObjectFieldStart(e.getKey());
                        gen.writeNumberField(CHECKPOINT_ID, e.getValue().checkpointId());
                        gen.writeNumberField(COMMIT_ID, e.getValue().commitId());
                        gen.writeEndObject();
                    }
                    gen.writeEndObject();
                    gen.writeArrayFieldStart(FILES);
                    for (List<DataFile> group : state.fileGroups().values()) {
                        for (DataFile f : group) {
                            DataFileParser.write(gen, f);
                        }
                    }
                    gen.writeEndArray();
                    more.write(gen);
                });
    }

    /**
     * Parses a checkpoint file.
     *
     * @param file where the text came from, named in errors
     * @throws CorruptFileException if the text is malformed, has another format version, or a field
     *     is missing or invalid
     */
    public static TableState fromJson(String file, String json) {
        JsonFields root = Json.parse(file, json);
        long commitId = root.requiredLong(COMMIT_ID);
        if (commitId < 0) {
            throw root.invalid(COMMIT_ID, "must be >= 0, got " + commitId);
        }
        long lastSequence = root.requiredLong(LAST_SEQUENCE);
        TableState.Builder b =
                new TableState.Builder(
                        commitId,
                        root.requiredLong(TIMESTAMP_MILLIS),
                        root.requiredInt(SCHEMA_ID),
                        lastSequence);
        if (root.has(WRITERS)) {
            JsonFields writers = root.object(WRITERS);
            for (String writerId : writers.names()) {
                JsonFields w = writers.object(writerId);
                b.writer(
                        writerId,
                        new WriterCheckpoint(
                                w.requiredLong(CHECKPOINT_ID), w.requiredLong(COMMIT_ID)));
            }
        }
        List<JsonFields> files = root.objectList(FILES);
        for (int i = 0; i < files.size(); i++) {
            DataFile f = DataFileParser.read(files.get(i));
            if (f.sequence() > lastSequence) {
                throw root.invalid(
                        FILES + "[" + i + "]." + DataFileParser.SEQUENCE,
                        f.sequence() + " is greater than " + LAST_SEQUENCE + " " + lastSequence);
            }
            if (!b.addFile(f)) {
                throw root.invalid(FILES + "[" + i + "]", "path " + f.path() + " appears twice");
            }
        }
        return b.build();
    }
}
