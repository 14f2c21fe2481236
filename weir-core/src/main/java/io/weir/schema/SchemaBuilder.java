package io.weir.schema;

import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.UpdateSchema.Position;
import io.weir.exceptions.ValidationException;
import io.weir.options.MergeOptions;
import io.weir.options.PartitionOptions;
import io.weir.options.TableOptions;
import io.weir.types.DataType;
import io.weir.types.Field;
import io.weir.types.RowType;
import io.weir.types.TypeWidening;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A schema version being changed: each change checks the rules of schema evolution against the
 * state left by the previous ones (docs/format.md, "Schema evolution"), and fails naming the table,
 * the column or option, and the rule.
 */
final class SchemaBuilder {
    /**
     * Options fixed when the table is created: they decide where rows live and how the versions of
     * a key merge, so changing them would change what the rows already written mean.
     */
    static final Set<String> FIXED_OPTIONS =
            Set.of(
                    TableOptions.BUCKET.key(),
                    TableOptions.MERGE_ENGINE.key(),
                    TableOptions.SEQUENCE_FIELD.key(),
                    PartitionOptions.TIME_COLUMN.key(),
                    PartitionOptions.TIME_GRANULARITY.key(),
                    PartitionOptions.TIME_ZONE.key(),
                    PartitionOptions.DAY_COLUMN.key(),
                    PartitionOptions.HOUR_COLUMN.key());

    private final String location;
    private final List<Field> fields;
    private final List<String> primaryKey;
    private final List<String> partitionKeys;
    private final Map<String, String> options;
    private int highestFieldId;

    SchemaBuilder(String location, TableMetadata base) {
        this.location = location;
        this.fields = new ArrayList<>(base.schema().fields());
        this.primaryKey = base.schema().primaryKey();
        this.partitionKeys = base.schema().partitionKeys();
        this.options = new TreeMap<>(base.options().toMap());
        this.highestFieldId = base.schema().highestFieldId();
    }

    Schema schema() {
        return new Schema(new RowType(fields), primaryKey, partitionKeys, highestFieldId);
    }

    Map<String, String> options() {
        return options;
    }

    void addColumn(String name, DataType type, String comment, Position position) {
        check(
                indexOf(name) < 0,
                "Cannot add column '%s' to table %s: a column of that name exists",
                name,
                location);
        check(
                type.nullable(),
                "Cannot add column '%s' to table %s as %s: rows written before have no value for"
                        + " it, so it must be nullable",
                name,
                location,
                type);
        Field field = new Field(++highestFieldId, name, type, comment);
        fields.add(insertionIndex(name, position), field);
    }

    void dropColumn(String name) {
        int i = existing(name, "drop");
        checkNotKey(name, "drop");
        checkNotNamedByOption(name, "drop");
        check(
                fields.size() > 1,
                "Cannot drop column '%s' of table %s: it is the only column",
                name,
                location);
        fields.remove(i);
    }

    void renameColumn(String name, String newName) {
        int i = existing(name, "rename");
        checkNotKey(name, "rename");
        checkNotNamedByOption(name, "rename");
        check(
                indexOf(newName) < 0,
                "Cannot rename column '%s' of table %s to '%s': a column of that name exists",
                name,
                location,
                newName);
        Field f = fields.get(i);
        fields.set(i, new Field(f.id(), newName, f.type(), f.description()));
    }

    void updateColumnType(String name, DataType newType) {
        int i = existing(name, "change the type of");
        Field f = fields.get(i);
        if (f.type().equals(newType)) {
            return;
        }
        checkNotKey(name, "change the type of");
        String option = optionNaming(name, false);
        check(
                option == null,
                "Cannot change the type of column '%s' of table %s: option '%s' names it, and"
                        + " its values order the rows of a key",
                name,
                location,
                option);
        check(
                TypeWidening.allowed(f.type(), newType),
                "Cannot change column '%s' of table %s from %s to %s: a type can only widen (%s)",
                name,
                location,
                f.type(),
                newType,
                TypeWidening.RULES);
        fields.set(i, new Field(f.id(), f.name(), newType, f.description()));
    }

    void makeColumnNullable(String name) {
        int i = existing(name, "change the nullability of");
        Field f = fields.get(i);
        if (f.type().nullable()) {
            return;
        }
        checkNotKey(name, "make nullable");
        fields.set(i, new Field(f.id(), f.name(), f.type().asNullable(), f.description()));
    }

    void updateColumnComment(String name, String comment) {
        int i = existing(name, "comment");
        Field f = fields.get(i);
        fields.set(i, new Field(f.id(), f.name(), f.type(), comment));
    }

    void moveColumn(String name, Position position) {
        int i = existing(name, "move");
        check(
                !name.equals(position.column()),
                "Cannot move column '%s' of table %s after itself",
                name,
                location);
        Field f = fields.remove(i);
        fields.add(insertionIndex(name, position), f);
    }

    void setOption(String key, String value) {
        checkChangeable(key, "set");
        options.put(key, value); // the value is checked with all options, when committing
    }

    void resetOption(String key) {
        checkChangeable(key, "reset");
        options.remove(key);
    }

    private void checkChangeable(String key, String verb) {
        check(
                TableOptions.isTableOption(key),
                "Cannot %s option '%s' of table %s: it is not a table option (table options: %s)",
                verb,
                key,
                location,
                String.join(", ", TableOptions.keys()));
        if (key.equals(TableOptions.BUCKET.key())) {
            throw new ValidationException(
                    "Cannot "
                            + verb
                            + " option 'bucket' of table "
                            + location
                            + ": the number of buckets changes by rewriting the data, with CALL"
                            + " sys.rescale('<table>', <buckets>) or weir rescale (docs/rescale.md)");
        }
        check(
                !FIXED_OPTIONS.contains(key) && !key.startsWith(MergeOptions.FIELDS_PREFIX),
                "Cannot %s option '%s' of table %s: it is fixed when the table is created, as it"
                        + " decides how the rows already written are partitioned or merged",
                verb,
                key,
                location);
    }

    private int insertionIndex(String name, Position position) {
        return switch (position.kind()) {
            case FIRST -> 0;
            case LAST -> fields.size();
            case AFTER -> {
                int after = indexOf(position.column());
                check(
                        after >= 0,
                        "Cannot place column '%s' of table %s after '%s': no such column (columns:"
                                + " %s)",
                        name,
                        location,
                        position.column(),
                        names());
                yield after + 1;
            }
        };
    }

    private int existing(String name, String verb) {
        int i = indexOf(name);
        check(
                i >= 0,
                "Cannot %s column '%s' of table %s: no such column (columns: %s)",
                verb,
                name,
                location,
                names());
        return i;
    }

    private void checkNotKey(String name, String verb) {
        check(
                !primaryKey.contains(name),
                "Cannot %s column '%s' of table %s: it is part of the primary key %s, and"
                        + " primary-key columns cannot change",
                verb,
                name,
                location,
                primaryKey);
        check(
                !partitionKeys.contains(name),
                "Cannot %s column '%s' of table %s: it is a partition key %s, and partition"
                        + " columns cannot change",
                verb,
                name,
                location,
                partitionKeys);
    }

    private void checkNotNamedByOption(String name, String verb) {
        String option = optionNaming(name, true);
        check(
                option == null,
                "Cannot %s column '%s' of table %s: option '%s' names it",
                verb,
                name,
                location,
                option);
    }

    /**
     * The option that names a column, or null. {@code all}: any option naming it, including the
     * per-field options of the merge engines; otherwise only options whose columns order rows (the
     * sequence field, the sequence fields of a sequence group, the time-partition column).
     */
    private String optionNaming(String column, boolean all) {
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey();
            List<String> ordering = new ArrayList<>();
            List<String> others = new ArrayList<>();
            if (key.equals(TableOptions.SEQUENCE_FIELD.key())
                    || key.equals(PartitionOptions.TIME_COLUMN.key())) {
                ordering.add(e.getValue().trim());
            } else if (MergeOptions.matches(key, MergeOptions.FIELD_SEQUENCE_GROUP)) {
                ordering.addAll(split(MergeOptions.field(key)));
                others.addAll(split(e.getValue()));
            } else if (key.startsWith(MergeOptions.FIELDS_PREFIX)) {
                others.addAll(split(MergeOptions.field(key)));
            }
            if (ordering.contains(column) || (all && others.contains(column))) {
                return key;
            }
        }
        return null;
    }

    private static List<String> split(String list) {
        List<String> out = new ArrayList<>();
        for (String s : list.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return out;
    }

    private int indexOf(String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private List<String> names() {
        return fields.stream().map(Field::name).toList();
    }

    private static void check(boolean condition, String format, Object... args) {
        if (!condition) {
            throw new ValidationException(String.format(format, args));
        }
    }
}
