package io.weir.flink.compaction;

import io.weir.FileGroupId;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.exceptions.ValidationException;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The file groups of the partitions a spec such as {@code dt=2024-05-01,region=eu} names: every
 * listed partition key must have the given value (its canonical text, as in partition paths before
 * URL-escaping; {@value Partition#NULL_TEXT} for null). Keys left out match any value; an empty
 * spec matches everything.
 */
public final class PartitionFilter implements Predicate<FileGroupId>, Serializable {
    private static final long serialVersionUID = 1L;

    private final Map<Integer, String> values;
    private final String spec;

    private PartitionFilter(Map<Integer, String> values, String spec) {
        this.values = values;
        this.spec = spec;
    }

    /** Matches every file group. */
    public static PartitionFilter all() {
        return new PartitionFilter(Map.of(), "");
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
        }
        return new PartitionFilter(values, spec.trim());
    }

    @Override
    public boolean test(FileGroupId group) {
        List<String> partition = group.partition().values();
        for (Map.Entry<Integer, String> e : values.entrySet()) {
            if (!Objects.equals(partition.get(e.getKey()), e.getValue())) {
                return false;
            }
        }
        return true;
    }

    public boolean isAll() {
        return values.isEmpty();
    }

    @Override
    public String toString() {
        return isAll() ? "all partitions" : "partition " + spec;
    }
}
