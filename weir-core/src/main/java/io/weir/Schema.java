package io.weir;

import io.weir.exceptions.ValidationException;
import io.weir.partition.TimePartitioning;
import io.weir.types.DataType;
import io.weir.types.Field;
import io.weir.types.RowType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The columns of a table, its primary key (empty for an append-only table) and its partition keys.
 * Primary-key columns are NOT NULL. The primary key must contain every partition key, so that one
 * key lives in one partition, except the columns a {@link TimePartitioning} derives from a key
 * column; {@link TableMetadata} checks that, as it depends on the options.
 */
public final class Schema {
    private final RowType rowType;
    private final List<String> primaryKey;
    private final List<String> partitionKeys;
    private final int[] primaryKeyPositions;
    private final int[] partitionKeyPositions;
    private final int highestFieldId;

    public Schema(RowType rowType, List<String> primaryKey, List<String> partitionKeys) {
        this(rowType, primaryKey, partitionKeys, -1);
    }

    /**
     * @param highestFieldId the largest field id the table ever assigned, dropped columns included
     *     (so that no id is reused); -1 or any value below the largest id of {@code rowType} means
     *     that largest id
     */
    public Schema(
            RowType rowType,
            List<String> primaryKey,
            List<String> partitionKeys,
            int highestFieldId) {
        List<Field> fields = new ArrayList<>(rowType.fields());
        this.primaryKey = List.copyOf(primaryKey);
        this.partitionKeys = List.copyOf(partitionKeys);
        ValidationException.check(!fields.isEmpty(), "Invalid schema: it has no columns");
        checkDistinct(this.primaryKey, "primary key");
        checkDistinct(this.partitionKeys, "partition keys");
        for (String key : this.primaryKey) {
            int pos = rowType.indexOf(key);
            ValidationException.check(
                    pos >= 0,
                    "Invalid primary key: column '%s' does not exist (columns: %s)",
                    key,
                    rowType.names());
            Field f = fields.get(pos);
            fields.set(pos, new Field(f.id(), f.name(), f.type().notNull(), f.description()));
        }
        for (String key : this.partitionKeys) {
            ValidationException.check(
                    rowType.indexOf(key) >= 0,
                    "Invalid partition key: column '%s' does not exist (columns: %s)",
                    key,
                    rowType.names());
        }
        // That every partition key is part of the primary key (or derived by the writer) is
        // checked with the options: TableMetadata.
        ValidationException.check(
                this.primaryKey.isEmpty() || !this.partitionKeys.containsAll(this.primaryKey),
                "Invalid primary key %s: it must have a column that is not a partition key",
                this.primaryKey);
        this.rowType = new RowType(fields);
        this.primaryKeyPositions = positions(this.rowType, this.primaryKey);
        this.partitionKeyPositions = positions(this.rowType, this.partitionKeys);
        this.highestFieldId =
                Math.max(highestFieldId, fields.stream().mapToInt(Field::id).max().orElse(-1));
    }

    public static Builder builder() {
        return new Builder();
    }

    public RowType rowType() {
        return rowType;
    }

    public List<Field> fields() {
        return rowType.fields();
    }

    public List<String> primaryKey() {
        return primaryKey;
    }

    public List<String> partitionKeys() {
        return partitionKeys;
    }

    public boolean hasPrimaryKey() {
        return !primaryKey.isEmpty();
    }

    public boolean isPartitioned() {
        return !partitionKeys.isEmpty();
    }

    /** Positions of the primary-key columns in the row, in key order. */
    public int[] primaryKeyPositions() {
        return primaryKeyPositions.clone();
    }

    /** Positions of the partition columns in the row, in partition-key order. */
    public int[] partitionKeyPositions() {
        return partitionKeyPositions.clone();
    }

    /**
     * The largest field id the table ever assigned, including those of dropped columns: new columns
     * get ids above it, so that a file written before a drop is never read into a new column.
     */
    public int highestFieldId() {
        return highestFieldId;
    }

    private static int[] positions(RowType type, List<String> names) {
        return names.stream().mapToInt(type::indexOf).toArray();
    }

    private static void checkDistinct(List<String> names, String what) {
        Set<String> seen = new HashSet<>();
        for (String n : names) {
            ValidationException.check(
                    seen.add(n), "Invalid %s: column '%s' appears twice", what, n);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schema other
                && rowType.equals(other.rowType)
                && primaryKey.equals(other.primaryKey)
                && partitionKeys.equals(other.partitionKeys)
                && highestFieldId == other.highestFieldId;
    }

    @Override
    public int hashCode() {
        return Objects.hash(rowType, primaryKey, partitionKeys, highestFieldId);
    }

    @Override
    public String toString() {
        return rowType + " PRIMARY KEY " + primaryKey + " PARTITIONED BY " + partitionKeys;
    }

    /** Builds a schema; columns get ids 0, 1, 2, ... in the order they are added. */
    public static final class Builder {
        private final List<Field> fields = new ArrayList<>();
        private List<String> primaryKey = List.of();
        private List<String> partitionKeys = List.of();

        public Builder column(String name, DataType type) {
            fields.add(new Field(fields.size(), name, type));
            return this;
        }

        public Builder column(String name, DataType type, String description) {
            fields.add(new Field(fields.size(), name, type, description));
            return this;
        }

        public Builder primaryKey(String... columns) {
            this.primaryKey = List.of(columns);
            return this;
        }

        public Builder partitionKeys(String... columns) {
            this.partitionKeys = List.of(columns);
            return this;
        }

        public Schema build() {
            return new Schema(new RowType(fields), primaryKey, partitionKeys);
        }
    }
}
