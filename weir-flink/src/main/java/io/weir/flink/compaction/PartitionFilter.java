package io.weir.flink.compaction;

import io.weir.FileGroupId;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.exceptions.ValidationException;
import io.weir.types.TypeRoot;

import java.io.Serializable;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The file groups of the partitions a spec such as {@code dt=2024-05-01,region=eu} names: every
 * listed partition key must have the given value (its canonical text, as in partition paths before
 * URL-escaping; {@value Partition#NULL_TEXT} for null). Keys left out match any value; an empty
 * spec matches everything. A FLOAT or DOUBLE key matches by value (docs/format.md §2.3: a partition
 * an older writer named {@code 9.999999999999999E22} is the one {@code 1.0E23} names; -0.0 is 0.0).
 */
public final class PartitionFilter implements Predicate<FileGroupId>, Serializable {
    private static final long serialVersionUID = 1L;

    private final Map<Integer, String> values;
    private final String spec;

    /** Positions of FLOAT (false) and DOUBLE (true) keys among those given. */
    private final Map<Integer, Boolean> floating;

    private PartitionFilter(
            Map<Integer, String> values, String spec, Map<Integer, Boolean> floating) {
        this.values = values;
        this.spec = spec;
        this.floating = floating;
    }

    /** Matches every file group. */
    public static PartitionFilter all() {
        return new PartitionFilter(Map.of(), "", Map.of());
    }

    /**
     * Parses {@code k=v[,k=v...]} against the table's partition keys.
     *
     * @throws ValidationException naming a key that is not a partition key, or a malformed pair
     */
    public static PartitionFilter parse(String spec, Schema schema) {
        if (spec == null || spec.isBlank()) {
            return all();
        }
        List<String> keys = schema.partitionKeys();
        Map<Integer, String> values = new LinkedHashMap<>();
        Map<Integer, Boolean> floating = new HashMap<>();
        for (String pair : spec.split(",")) {
            int eq = pair.indexOf('=');
            ValidationException.check(
                    eq > 0, "Invalid partition '%s': expected key=value[,key=value...]", spec);
            String key = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            int position = keys.indexOf(key);
            ValidationException.check(
                    position >= 0,
                    "Invalid partition '%s': '%s' is not a partition key of the table (partition"
                            + " keys: %s)",
                    spec,
                    key,
                    keys);
            ValidationException.check(
                    !values.containsKey(position),
                    "Invalid partition '%s': key '%s' given twice",
                    spec,
                    key);
            values.put(position, value.equals(Partition.NULL_TEXT) ? null : value);
            TypeRoot root = schema.rowType().type(schema.rowType().indexOf(key)).root();
            if (root == TypeRoot.FLOAT || root == TypeRoot.DOUBLE) {
                floating.put(position, root == TypeRoot.DOUBLE);
                ValidationException.check(
                        value.equals(Partition.NULL_TEXT) || number(value, false) != null,
                        "Invalid partition '%s': '%s' is not a %s value",
                        spec,
                        value,
                        root);
            }
        }
        return new PartitionFilter(values, spec.trim(), floating);
    }

    @Override
    public boolean test(FileGroupId group) {
        List<String> partition = group.partition().values();
        for (Map.Entry<Integer, String> e : values.entrySet()) {
            String text = partition.get(e.getKey());
            Boolean isDouble = floating.get(e.getKey());
            if (isDouble != null && text != null && e.getValue() != null) {
                Double a = number(text, isDouble);
                if (a == null || !a.equals(number(e.getValue(), isDouble))) {
                    return false;
                }
            } else if (!Objects.equals(text, e.getValue())) {
                return false;
            }
        }
        return true;
    }

    /**
     * A FLOAT (read as a float) or DOUBLE text's value with -0.0 as 0.0 ({@code Double.equals} then
     * also makes every NaN equal), or null if it is not a number.
     */
    private static Double number(String text, boolean isDouble) {
        try {
            double v = isDouble ? Double.parseDouble(text) : Float.parseFloat(text);
            return v == 0 ? 0.0 : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public boolean isAll() {
        return values.isEmpty();
    }

    @Override
    public String toString() {
        return isAll() ? "all partitions" : "partition " + spec;
    }
}
