package io.weir.commit;

import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.ValidationException;
import io.weir.options.TableOptions;
import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.Field;
import io.weir.types.RowType;
import io.weir.util.Json;
import io.weir.util.JsonFields;

import java.util.ArrayList;
import java.util.List;

/**
 * JSON codec of {@link TableMetadata}, the content of {@code _weir/schemas/<id>.json}
 * (docs/format.md §6). Field types are stored in their SQL form ({@link DataType#toString()}).
 */
public final class TableMetadataParser {
    static final String SCHEMA_ID = "schema-id";
    static final String CREATED_MILLIS = "created-millis";
    static final String SCHEMA = "schema";
    static final String FIELDS = "fields";
    static final String ID = "id";
    static final String NAME = "name";
    static final String TYPE = "type";
    static final String DESCRIPTION = "description";
    static final String PRIMARY_KEY = "primary-key";
    static final String PARTITION_KEYS = "partition-keys";
    static final String HIGHEST_FIELD_ID = "highest-field-id";
    static final String OPTIONS = "options";

    private TableMetadataParser() {}

    public static String toJson(TableMetadata metadata) {
        return Json.document(
                gen -> {
                    gen.writeNumberField(SCHEMA_ID, metadata.schemaId());
                    gen.writeNumberField(CREATED_MILLIS, metadata.createdMillis());
                    Schema schema = metadata.schema();
                    gen.writeObjectFieldStart(SCHEMA);
                    gen.writeArrayFieldStart(FIELDS);
                    for (Field f : schema.fields()) {
                        gen.writeStartObject();
                        gen.writeNumberField(ID, f.id());
                        gen.writeStringField(NAME, f.name());
                        gen.writeStringField(TYPE, f.type().toString());
                        Json.writeOptionalString(gen, DESCRIPTION, f.description());
                        gen.writeEndObject();
                    }
                    gen.writeEndArray();
                    Json.writeStrings(gen, PRIMARY_KEY, schema.primaryKey());
                    Json.writeStrings(gen, PARTITION_KEYS, schema.partitionKeys());
                    gen.writeNumberField(HIGHEST_FIELD_ID, schema.highestFieldId());
                    gen.writeEndObject();
                    Json.writeStringMap(gen, OPTIONS, metadata.options().toMap());
                });
    }

    /**
     * Parses a schema file.
     *
     * @param file where the text came from, named in errors
     * @throws CorruptFileException if the text is malformed, has another format version, or a field
     *     is missing or invalid
     */
    public static TableMetadata fromJson(String file, String json) {
        JsonFields root = Json.parse(file, json);
        int schemaId = root.requiredInt(SCHEMA_ID);
        if (schemaId < 0) {
            throw root.invalid(SCHEMA_ID, "must be >= 0, got " + schemaId);
        }
        long created = root.requiredLong(CREATED_MILLIS);
        JsonFields schemaJson = root.object(SCHEMA);
        List<Field> fields = new ArrayList<>();
        for (JsonFields f : schemaJson.objectList(FIELDS)) {
            fields.add(field(f));
        }
        Schema schema;
        try {
            schema =
                    new Schema(
                            new RowType(fields),
                            schemaJson.stringList(PRIMARY_KEY),
                            schemaJson.stringList(PARTITION_KEYS),
                            highestFieldId(schemaJson, fields));
        } catch (IllegalArgumentException | ValidationException e) {
            throw root.invalid(SCHEMA, e.getMessage());
        }
        TableOptions options;
        try {
            options = TableOptions.of(root.stringMap(OPTIONS));
        } catch (IllegalArgumentException | ValidationException e) {
            throw root.invalid(OPTIONS, e.getMessage());
        }
        try {
            return new TableMetadata(schemaId, schema, options, created);
        } catch (IllegalArgumentException | ValidationException e) {
            // The schema and options parse, but do not fit together (e.g. an option naming a
            // column the schema lacks): the file is damaged, not the caller's input.
            throw root.invalid(OPTIONS, e.getMessage());
        }
    }

    /** Optional (tables created before schema evolution): the largest id of the fields. */
    private static int highestFieldId(JsonFields schema, List<Field> fields) {
        int largest = fields.stream().mapToInt(Field::id).max().orElse(-1);
        if (!schema.has(HIGHEST_FIELD_ID)) {
            return largest;
        }
        int highest = schema.requiredInt(HIGHEST_FIELD_ID);
        if (highest < largest) {
            throw schema.invalid(
                    HIGHEST_FIELD_ID,
                    "must be at least the largest field id " + largest + ", got " + highest);
        }
        return highest;
    }

    private static Field field(JsonFields f) {
        int id = f.requiredInt(ID);
        String name = f.requiredString(NAME);
        DataType type;
        try {
            type = DataTypes.parse(f.requiredString(TYPE));
        } catch (IllegalArgumentException e) {
            throw f.invalid(TYPE, e.getMessage());
        }
        try {
            return new Field(id, name, type, f.optionalString(DESCRIPTION));
        } catch (IllegalArgumentException e) {
            throw f.invalid(NAME, e.getMessage());
        }
    }
}
