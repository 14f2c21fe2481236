package io.weir.flink.sink.internal;

import io.weir.Schema;
import io.weir.data.Timestamp;
import io.weir.data.ValueStrings;
import io.weir.exceptions.ValidationException;
import io.weir.types.DataType;

import javax.annotation.Nullable;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Static partition values ({@code PARTITION (dt='2024-01-01')}) as the SQL planner passes them (SQL
 * literal texts), turned into Weir's canonical partition texts, which is how a {@link
 * io.weir.Partition} of rows with those values is spelled.
 */
public final class StaticPartitions {
    private StaticPartitions() {}

    /**
     * Validates the static values and returns the canonical values of every partition key, in key
     * order, if all are fixed; null if some (or all) are left to the rows.
     *
     * @throws ValidationException if a key is not a partition key or a value does not parse
     */
    @Nullable
    public static List<String> resolve(String location, Schema schema, Map<String, String> values) {
        for (String key : values.keySet()) {
            ValidationException.check(
                    schema.partitionKeys().contains(key),
                    "Cannot write a static partition of table %s: '%s' is not a partition key (keys:"
                            + " %s)",
                    location,
                    key,
                    schema.partitionKeys());
        }
        if (values.isEmpty() || values.size() < schema.partitionKeys().size()) {
            return null;
        }
        List<String> canonical = new ArrayList<>();
        for (String key : schema.partitionKeys()) {
            DataType type = schema.rowType().type(schema.rowType().indexOf(key));
            canonical.add(canonical(location, key, values.get(key), type));
        }
        return canonical;
    }

    private static String canonical(String location, String key, String text, DataType type) {
        if (text == null) {
            return null;
        }
        try {
            Object value =
                    switch (type.root()) {
                        case TIMESTAMP -> sqlTimestamp(text.trim());
                        case TIMESTAMP_LTZ ->
                                throw new IllegalArgumentException(
                                        "a static TIMESTAMP_LTZ partition depends on the session"
                                                + " time zone; leave it to the rows");
                        default -> ValueStrings.fromText(text, type);
                    };
            return ValueStrings.toText(value, type);
        } catch (RuntimeException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot write static partition %s='%s' of table %s: not a value of"
                                    + " type %s (%s)",
                            key, text, location, type, e.getMessage()),
                    e);
        }
    }

    /** {@code yyyy-MM-dd HH:mm:ss[.fffffffff]}, the SQL text of a TIMESTAMP. */
    private static Timestamp sqlTimestamp(String text) {
        return Timestamp.of(LocalDateTime.parse(text.replace(' ', 'T')));
    }
}
