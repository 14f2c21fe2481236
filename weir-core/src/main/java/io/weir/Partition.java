package io.weir;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The values of a table's partition keys for one partition, as canonical texts ({@link
 * io.weir.data.ValueStrings}; null for a null value). An unpartitioned table has one partition with
 * no values.
 */
public record Partition(List<String> values) implements Comparable<Partition> {
    public static final Partition UNPARTITIONED = new Partition(List.of());

    /** The path segment value used for null (as Hive's default partition). */
    public static final String NULL_TEXT = "__DEFAULT_PARTITION__";

    public Partition {
        values = Collections.unmodifiableList(new ArrayList<>(values));
    }

    public static Partition of(String... values) {
        return new Partition(Arrays.asList(values));
    }

    /** The relative directory of this partition: {@code k1=v1/k2=v2} with URL-escaped values. */
    public String path(List<String> keys) {
        if (keys.size() != values.size()) {
            throw new IllegalArgumentException(
                    "Partition " + values + " does not match partition keys " + keys);
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                sb.append('/');
            }
            String v = values.get(i);
            sb.append(keys.get(i))
                    .append('=')
                    .append(v == null ? NULL_TEXT : URLEncoder.encode(v, StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    /**
     * {@code k=v[,k2=v2]} with the canonical texts unescaped ({@link #NULL_TEXT} for null), the
     * form in which the rescale command and procedure name a partition; "(unpartitioned)" without
     * keys.
     */
    public String spec(List<String> keys) {
        if (keys.isEmpty()) {
            return "(unpartitioned)";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            String v = values.get(i);
            sb.append(i > 0 ? "," : "").append(keys.get(i)).append('=');
            sb.append(v == null ? NULL_TEXT : v);
        }
        return sb.toString();
    }

    /** Parses a path written by {@link #path}. */
    public static Partition fromPath(String path, List<String> keys) {
        if (keys.isEmpty()) {
            return UNPARTITIONED;
        }
        String[] segments = path.split("/");
        if (segments.length != keys.size()) {
            throw new IllegalArgumentException(
                    "Partition path '" + path + "' does not match partition keys " + keys);
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < segments.length; i++) {
            String prefix = keys.get(i) + "=";
            if (!segments[i].startsWith(prefix)) {
                throw new IllegalArgumentException(
                        "Partition path '" + path + "' does not match partition keys " + keys);
            }
            String v = segments[i].substring(prefix.length());
            values.add(v.equals(NULL_TEXT) ? null : URLDecoder.decode(v, StandardCharsets.UTF_8));
        }
        return new Partition(values);
    }

    @Override
    public int compareTo(Partition o) {
        for (int i = 0; i < Math.min(values.size(), o.values.size()); i++) {
            String a = values.get(i);
            String b = o.values.get(i);
            if (a == null || b == null) {
                if (a != b) {
                    return a == null ? -1 : 1;
                }
                continue;
            }
            int c = a.compareTo(b);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(values.size(), o.values.size());
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
