package io.weir;

import io.weir.util.Json;
import io.weir.util.JsonFields;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** JSON codec of a {@link DataFile} inside commit and checkpoint documents. */
public final class DataFileParser {
    public static final String PATH = "path";
    public static final String KIND = "kind";
    public static final String PARTITION = "partition";
    public static final String BUCKET = "bucket";
    public static final String RECORD_COUNT = "record-count";
    public static final String SIZE_IN_BYTES = "size-in-bytes";
    public static final String SEQUENCE = "sequence";
    public static final String SCHEMA_ID = "schema-id";
    public static final String MIN_KEY = "min-key";
    public static final String MAX_KEY = "max-key";
    public static final String COLUMN_STATS = "column-stats";
    public static final String TOTAL_BUCKETS = "total-buckets";
    public static final String MIN = "min";
    public static final String MAX = "max";
    public static final String NULL_COUNT = "null-count";

    private DataFileParser() {}

    public static void write(JsonGenerator gen, DataFile file) throws IOException {
        gen.writeStartObject();
        gen.writeStringField(PATH, file.path());
        gen.writeStringField(KIND, file.kind().name());
        Json.writeStrings(gen, PARTITION, file.partition().values());
        gen.writeNumberField(BUCKET, file.bucket());
        gen.writeNumberField(RECORD_COUNT, file.recordCount());
        gen.writeNumberField(SIZE_IN_BYTES, file.sizeInBytes());
        gen.writeNumberField(SEQUENCE, file.sequence());
        gen.writeNumberField(SCHEMA_ID, file.schemaId());
        if (!file.minKey().isEmpty() || !file.maxKey().isEmpty()) {
            Json.writeStrings(gen, MIN_KEY, file.minKey());
            Json.writeStrings(gen, MAX_KEY, file.maxKey());
        }
        if (!file.columnStats().isEmpty()) {
            gen.writeObjectFieldStart(COLUMN_STATS);
            for (Map.Entry<Integer, ColumnStats> e : new TreeMap<>(file.columnStats()).entrySet()) {
                ColumnStats s = e.getValue();
                gen.writeObjectFieldStart(String.valueOf(e.getKey()));
                Json.writeOptionalString(gen, MIN, s.min());
                Json.writeOptionalString(gen, MAX, s.max());
                gen.writeNumberField(NULL_COUNT, s.nullCount());
                gen.writeEndObject();
            }
            gen.writeEndObject();
        }
        if (file.totalBuckets() > 0) {
            gen.writeNumberField(TOTAL_BUCKETS, file.totalBuckets());
        }
        gen.writeEndObject();
    }

    public static DataFile read(JsonFields f) {
        Map<Integer, ColumnStats> stats = new HashMap<>();
        if (f.has(COLUMN_STATS)) {
            JsonFields statsJson = f.object(COLUMN_STATS);
            for (String key : statsJson.names()) {
                int fieldId;
                try {
                    fieldId = Integer.parseInt(key);
                } catch (NumberFormatException e) {
                    throw f.invalid(COLUMN_STATS, "key \"" + key + "\" is not a field id");
                }
                JsonFields s = statsJson.object(key);
                stats.put(
                        fieldId,
                        new ColumnStats(
                                s.optionalString(MIN),
                                s.optionalString(MAX),
                                s.requiredLong(NULL_COUNT)));
            }
        }
        int totalBuckets = 0;
        if (f.has(TOTAL_BUCKETS)) {
            totalBuckets = f.requiredInt(TOTAL_BUCKETS);
            if (totalBuckets < 1 || totalBuckets > 32768) {
                throw f.invalid(TOTAL_BUCKETS, "expected 1 to 32768, got " + totalBuckets);
            }
        }
        return new DataFile(
                f.requiredString(PATH),
                f.requiredEnum(KIND, FileKind.class),
                new Partition(f.stringList(PARTITION)),
                f.requiredInt(BUCKET),
                f.requiredLong(RECORD_COUNT),
                f.requiredLong(SIZE_IN_BYTES),
                f.requiredLong(SEQUENCE),
                f.requiredInt(SCHEMA_ID),
                f.optionalStringList(MIN_KEY),
                f.optionalStringList(MAX_KEY),
                stats,
                totalBuckets);
    }
}
