package io.weir.util;

import io.weir.exceptions.CorruptFileException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Shared JSON plumbing of the metadata parsers: the format version, writing and strict parsing. */
public final class Json {
    /** The metadata format version this code writes and reads. */
    public static final int FORMAT_VERSION = 1;

    public static final String FORMAT_VERSION_FIELD = "format-version";

    private static final ObjectMapper MAPPER =
            new ObjectMapper(
                            JsonFactory.builder()
                                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                                    .build())
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Json() {}

    /** Writes one document body; the generator is already inside the root object. */
    public interface Body {
        void write(JsonGenerator gen) throws IOException;
    }

    /** A pretty-printed document: an object starting with {@code "format-version": 1}. */
    public static String document(Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator gen = MAPPER.getFactory().createGenerator(out)) {
            gen.useDefaultPrettyPrinter();
            gen.writeStartObject();
            gen.writeNumberField(FORMAT_VERSION_FIELD, FORMAT_VERSION);
            body.write(gen);
            gen.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write JSON", e); // a StringWriter does not fail
        }
        return out.append('\n').toString();
    }

    /**
     * Parses a document and checks its format version.
     *
     * @param file the file the text came from, for error messages
     * @throws CorruptFileException if the text is not a JSON object or has another format version
     */
    public static JsonFields parse(String file, String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            long offset = loc == null ? -1 : loc.getCharOffset();
            throw new CorruptFileException(
                    file, Math.max(offset, 0), "malformed JSON: " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode()) {
            throw new CorruptFileException(file, 0, "empty file, expected a JSON object");
        }
        JsonFields fields = new JsonFields(file, "", root);
        int version = fields.requiredInt(FORMAT_VERSION_FIELD);
        if (version != FORMAT_VERSION) {
            throw new CorruptFileException(
                    file,
                    "unsupported "
                            + FORMAT_VERSION_FIELD
                            + " "
                            + version
                            + ": this version of Weir reads "
                            + FORMAT_VERSION_FIELD
                            + " "
                            + FORMAT_VERSION);
        }
        return fields;
    }

    public static void writeStrings(JsonGenerator gen, String field, List<String> values)
            throws IOException {
        gen.writeArrayFieldStart(field);
        for (String v : values) {
            gen.writeString(v); // writes null for null
        }
        gen.writeEndArray();
    }

    /** Writes a map with sorted keys, so that equal maps give equal bytes. */
    public static void writeStringMap(JsonGenerator gen, String field, Map<String, String> map)
            throws IOException {
        gen.writeObjectFieldStart(field);
        for (Map.Entry<String, String> e : new TreeMap<>(map).entrySet()) {
            gen.writeStringField(e.getKey(), e.getValue());
        }
        gen.writeEndObject();
    }

    public static void writeOptionalString(JsonGenerator gen, String field, String value)
            throws IOException {
        if (value != null) {
            gen.writeStringField(field, value);
        }
    }
}
