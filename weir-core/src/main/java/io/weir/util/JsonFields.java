package io.weir.util;

import io.weir.exceptions.CorruptFileException;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Typed, strict access to the fields of one JSON object of a metadata file. Every problem is a
 * {@link CorruptFileException} naming the file and the field's path (e.g. {@code added[3].path}).
 */
public final class JsonFields {
    private final String file;
    private final String where;
    private final JsonNode node;

    public JsonFields(String file, String where, JsonNode node) {
        this.file = file;
        this.where = where;
        this.node = node;
        if (!node.isObject()) {
            throw new CorruptFileException(
                    file,
                    (where.isEmpty() ? "document" : "field '" + where + "'")
                            + ": expected a JSON object, got "
                            + describe(node));
        }
    }

    public String file() {
        return file;
    }

    public boolean has(String name) {
        JsonNode v = node.get(name);
        return v != null && !v.isNull();
    }

    public long requiredLong(String name) {
        JsonNode v = required(name);
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw invalid(name, "expected an integer, got " + describe(v));
        }
        return v.longValue();
    }

    public int requiredInt(String name) {
        JsonNode v = required(name);
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw invalid(name, "expected a 32-bit integer, got " + describe(v));
        }
        return v.intValue();
    }

    public long optionalLong(String name, long fallback) {
        return has(name) ? requiredLong(name) : fallback;
    }

    public String requiredString(String name) {
        JsonNode v = required(name);
        if (!v.isTextual()) {
            throw invalid(name, "expected a string, got " + describe(v));
        }
        return v.textValue();
    }

    /** The string value, or null if the field is absent or null. */
    public String optionalString(String name) {
        return has(name) ? requiredString(name) : null;
    }

    public <E extends Enum<E>> E requiredEnum(String name, Class<E> type) {
        String text = requiredString(name);
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(text)) {
                return e;
            }
        }
        throw invalid(name, "unknown value \"" + text + "\"");
    }

    /** An array of strings (elements may be null); absent means empty. */
    public List<String> optionalStringList(String name) {
        return has(name) ? stringList(name) : List.of();
    }

    /** A required array of strings (elements may be null). */
    public List<String> stringList(String name) {
        List<String> out = new ArrayList<>();
        int i = 0;
        for (JsonNode e : array(name)) {
            if (!e.isNull() && !e.isTextual()) {
                throw invalid(name + "[" + i + "]", "expected a string, got " + describe(e));
            }
            out.add(e.isNull() ? null : e.textValue());
            i++;
        }
        return out;
    }

    /** An object of string values, in file order; absent means empty. */
    public Map<String, String> stringMap(String name) {
        Map<String, String> out = new LinkedHashMap<>();
        if (!has(name)) {
            return out;
        }
        JsonFields map = object(name);
        for (Iterator<String> it = map.node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            out.put(key, map.requiredString(key));
        }
        return out;
    }

    public JsonFields object(String name) {
        return new JsonFields(file, path(name), required(name));
    }

    /** The field names of this object, in file order. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** A required array of objects. */
    public List<JsonFields> objectList(String name) {
        List<JsonFields> out = new ArrayList<>();
        int i = 0;
        for (JsonNode e : array(name)) {
            out.add(new JsonFields(file, path(name) + "[" + i++ + "]", e));
        }
        return out;
    }

    /** An error about a field of this object (for checks the parsers make themselves). */
    public CorruptFileException invalid(String name, String problem) {
        return new CorruptFileException(file, "field '" + path(name) + "': " + problem);
    }

    private JsonNode array(String name) {
        JsonNode v = required(name);
        if (!v.isArray()) {
            throw invalid(name, "expected an array, got " + describe(v));
        }
        return v;
    }

    private JsonNode required(String name) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            throw new CorruptFileException(file, "field '" + path(name) + "' is missing");
        }
        return v;
    }

    private String path(String name) {
        return where.isEmpty() ? name : where + "." + name;
    }

    private static String describe(JsonNode v) {
        String text = v.toString();
        return v.getNodeType().name().toLowerCase(Locale.ROOT)
                + " "
                + (text.length() > 40 ? text.substring(0, 40) + "..." : text);
    }
}
