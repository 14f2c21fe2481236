package io.weir.util;

import io.weir.exceptions.CorruptFileException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * Shared JSON plumbing of the metadata parsers: the format version, the checksum, writing and
 * strict parsing (docs/format.md §6).
 *
 * <p>Every document is written with a first member {@code "checksum" : "crc32c:<8 hex>"}, in a
 * fixed layout (the first 34 bytes), whose CRC-32C covers every byte after it: a flipped byte
 * inside a value (a record count, a path) then fails reading instead of being read. Documents
 * without it (written before it existed) are read unchecked, but must start with {@code
 * format-version}, so that damage to the checksum member itself is not mistaken for such a
 * document.
 */
public final class Json {
    /** The metadata format version this code writes and reads. */
    public static final int FORMAT_VERSION = 1;

    public static final String FORMAT_VERSION_FIELD = "format-version";

    public static final String CHECKSUM_FIELD = "checksum";

    /** The text a checksummed document starts with, up to the 8 hex digits. */
    private static final String CHECKSUM_START = "{\n  \"" + CHECKSUM_FIELD + "\" : \"crc32c:";

    /** Where the 8 lowercase hex digits of the CRC start. */
    private static final int CHECKSUM_DIGITS = CHECKSUM_START.length();

    /** The CRC covers the bytes from here (the byte after the checksum's closing quote) on. */
    public static final int CHECKSUM_COVERED_FROM = CHECKSUM_DIGITS + 9;

    /** A document without a checksum: its first member is the format version. */
    private static final Pattern FORMAT_VERSION_FIRST =
            Pattern.compile("\\s*\\{\\s*\"" + FORMAT_VERSION_FIELD + "\"");

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

    /**
     * A pretty-printed document: an object starting with its checksum and {@code "format-version":
     * 1}.
     */
    public static String document(Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator gen = MAPPER.getFactory().createGenerator(out)) {
            // "\n" on every platform: the checksum member's layout is fixed.
            gen.setPrettyPrinter(
                    new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n")));
            gen.writeStartObject();
            gen.writeStringField(CHECKSUM_FIELD, "crc32c:00000000"); // filled in below
            gen.writeNumberField(FORMAT_VERSION_FIELD, FORMAT_VERSION);
            body.write(gen);
            gen.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write JSON", e); // a StringWriter does not fail
        }
        String text = out.append('\n').toString();
        if (!text.startsWith(CHECKSUM_START) || text.charAt(CHECKSUM_COVERED_FROM - 1) != '"') {
            throw new IllegalStateException("Unexpected layout of the checksum member: " + text);
        }
        return text.substring(0, CHECKSUM_DIGITS)
                + hex(crc(text))
                + text.substring(CHECKSUM_COVERED_FROM - 1);
    }

    /** The CRC-32C of the UTF-8 bytes of {@code text} from {@link #CHECKSUM_COVERED_FROM} on. */
    private static int crc(String text) {
        // The text before that offset is ASCII: its char offset is its byte offset.
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(bytes, CHECKSUM_COVERED_FROM, bytes.length - CHECKSUM_COVERED_FROM);
        return (int) crc.getValue();
    }

    private static String hex(int crc) {
        String h = Integer.toHexString(crc);
        return "0".repeat(8 - h.length()) + h;
    }

    /**
     * Checks the checksum member of a document that starts with one.
     *
     * @return whether the document has a checksum member
     */
    private static boolean verifyChecksum(String file, String json) {
        if (!json.startsWith(CHECKSUM_START)) {
            return false;
        }
        String digits =
                json.length() >= CHECKSUM_COVERED_FROM
                        ? json.substring(CHECKSUM_DIGITS, CHECKSUM_COVERED_FROM - 1)
                        : "";
        if (!digits.matches("[0-9a-f]{8}") || json.charAt(CHECKSUM_COVERED_FROM - 1) != '"') {
            throw new CorruptFileException(
                    file,
                    CHECKSUM_DIGITS,
                    "damaged checksum member: expected 8 lowercase hex digits and '\"' after '"
                            + CHECKSUM_START.substring(4)
                            + "'");
        }
        String actual = hex(crc(json));
        if (!actual.equals(digits)) {
            throw new CorruptFileException(
                    file,
                    CHECKSUM_DIGITS,
                    "checksum mismatch: the file says crc32c:"
                            + digits
                            + ", its bytes from offset "
                            + CHECKSUM_COVERED_FROM
                            + " on give crc32c:"
                            + actual);
        }
        return true;
    }

    /**
     * Parses a document and checks its format version.
     *
     * @param file the file the text came from, for error messages
     * @throws CorruptFileException if the checksum does not match, the text is not a JSON object,
     *     or has another format version
     */
    public static JsonFields parse(String file, String json) {
        boolean checked = verifyChecksum(file, json);
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
        if (!checked && !FORMAT_VERSION_FIRST.matcher(json).lookingAt()) {
            throw new CorruptFileException(
                    file,
                    "the first member is neither a checksum in the layout Weir writes nor "
                            + FORMAT_VERSION_FIELD
                            + " (damaged)");
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
