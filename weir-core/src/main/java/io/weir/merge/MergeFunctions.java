package io.weir.merge;

import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.data.KeyFields;
import io.weir.exceptions.ValidationException;
import io.weir.options.AggregateFunction;
import io.weir.options.MergeEngine;
import io.weir.options.MergeOptions;
import io.weir.options.TableOptions;
import io.weir.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Creates the {@link MergeFunction} of a table's {@code merge-engine}, and checks its options: the
 * one place that does (docs/merge-engines.md).
 */
public final class MergeFunctions {
    private MergeFunctions() {}

    /**
     * The merge function of a keyed table.
     *
     * @param rowsStayValid whether the rows given to {@link MergeFunction#add} stay valid until the
     *     next key (rows in a sort buffer's pages); otherwise the function copies what it keeps
     * @param records whether the rows are records as written (the writer's buffer) rather than rows
     *     that a merge function folded before (files, spilled runs): an aggregate such as {@code
     *     count} folds the two differently
     */
    public static MergeFunction create(
            TableMetadata metadata, boolean rowsStayValid, boolean records) {
        TableOptions options = metadata.options();
        RowType rowType = metadata.schema().rowType();
        return switch (options.mergeEngine()) {
            case DEDUPLICATE ->
                    new DeduplicateMergeFunction(
                            sequenceField(metadata), rowType.size(), rowsStayValid);
            case FIRST_ROW -> new FirstRowMergeFunction(rowType.size(), rowsStayValid);
            case PARTIAL_UPDATE ->
                    new PartialUpdateMergeFunction(metadata.schema(), sequenceGroups(metadata));
            case AGGREGATION ->
                    new AggregateMergeFunction(
                            metadata.schema(), aggregators(metadata, options), records);
        };
    }

    /**
     * The {@code deduplicate} function on its own, for benchmarks and tests of the callers.
     *
     * @param sequenceField the ordering field as a one-field key, or null: the latest wins
     */
    public static MergeFunction deduplicate(
            KeyFields sequenceField, int arity, boolean rowsStayValid) {
        return new DeduplicateMergeFunction(sequenceField, arity, rowsStayValid);
    }

    /**
     * Checks the merge options of a table being created: throws, naming the table ({@code
     * location}) and the option, what a write would.
     */
    public static void validate(String location, TableMetadata metadata) {
        try {
            validate(metadata);
        } catch (ValidationException e) {
            throw new ValidationException(
                    "Cannot create table " + location + ": " + e.getMessage(), e);
        }
    }

    /** Checks the merge options of a table version: throws naming the option, as a write would. */
    public static void validate(TableMetadata metadata) {
        checkEngine(metadata);
        create(metadata, false, true);
    }

    /**
     * Why the table refuses a retraction (-U, -D) of a record, or null if it takes them. A writer
     * refuses such a record when it is written, so that no file holds what no merge can fold.
     */
    public static String retractionRefusal(TableMetadata metadata) {
        TableOptions options = metadata.options();
        if (options.ignoreDelete() || !metadata.schema().hasPrimaryKey()) {
            return null;
        }
        switch (options.mergeEngine()) {
            case FIRST_ROW:
                return "merge-engine 'first-row' does not take retractions (-U, -D); set"
                        + " 'ignore-delete' = 'true' to drop them";
            case PARTIAL_UPDATE:
                if (sequenceGroups(metadata).isEmpty()) {
                    return "merge-engine 'partial-update' takes retractions (-U, -D) only for"
                            + " fields in a sequence group ('fields.<sequence-fields>.sequence-group');"
                            + " set 'ignore-delete' = 'true' to drop them";
                }
                return null;
            case AGGREGATION:
                for (Map.Entry<String, AggregateFunction> e :
                        options.fieldValues(MergeOptions.FIELD_AGGREGATE_FUNCTION).entrySet()) {
                    if (!e.getValue().canRetract()
                            && !options.fieldValues(MergeOptions.FIELD_IGNORE_RETRACT)
                                    .getOrDefault(e.getKey(), false)) {
                        return "aggregate function '"
                                + name(e.getValue())
                                + "' of field '"
                                + e.getKey()
                                + "' cannot retract (-U, -D); set 'fields."
                                + e.getKey()
                                + ".ignore-retract' = 'true' to leave it unchanged, or"
                                + " 'ignore-delete' = 'true' to drop retractions";
                    }
                }
                return null;
            default:
                return null;
        }
    }

    private static void checkEngine(TableMetadata metadata) {
        TableOptions options = metadata.options();
        MergeEngine engine = options.mergeEngine();
        Schema schema = metadata.schema();
        if (engine != MergeEngine.DEDUPLICATE) {
            check(
                    schema.hasPrimaryKey(),
                    "merge-engine '%s' needs a primary key; the table has none",
                    name(engine));
            check(
                    options.sequenceField() == null,
                    "'sequence.field' works with merge-engine 'deduplicate' only, not '%s'%s",
                    name(engine),
                    engine == MergeEngine.PARTIAL_UPDATE
                            ? "; order columns with 'fields.<sequence-fields>.sequence-group'"
                            : "");
        }
        checkFieldOptions(
                options, MergeOptions.FIELD_AGGREGATE_FUNCTION, engine, MergeEngine.AGGREGATION);
        checkFieldOptions(
                options, MergeOptions.FIELD_IGNORE_RETRACT, engine, MergeEngine.AGGREGATION);
        checkFieldOptions(
                options, MergeOptions.FIELD_LIST_AGG_DELIMITER, engine, MergeEngine.AGGREGATION);
        checkFieldOptions(
                options, MergeOptions.FIELD_SEQUENCE_GROUP, engine, MergeEngine.PARTIAL_UPDATE);
    }

    private static void checkFieldOptions(
            TableOptions options,
            io.weir.options.ConfigOption<?> template,
            MergeEngine engine,
            MergeEngine required) {
        for (String field : options.fieldValues(template).keySet()) {
            String key =
                    template.key().replace("<field>", field).replace("<sequence-fields>", field);
            check(
                    engine == required,
                    "option '%s' works with merge-engine '%s' only, not '%s'",
                    key,
                    name(required),
                    name(engine));
        }
    }

    /** The sequence groups of a partial-update table, checked against its schema. */
    static List<SequenceGroup> sequenceGroups(TableMetadata metadata) {
        Schema schema = metadata.schema();
        RowType rowType = schema.rowType();
        List<SequenceGroup> groups = new ArrayList<>();
        int[] owner = new int[rowType.size()];
        Arrays.fill(owner, -1);
        for (Map.Entry<String, String> e :
                metadata.options().fieldValues(MergeOptions.FIELD_SEQUENCE_GROUP).entrySet()) {
            String key = "fields." + e.getKey() + ".sequence-group";
            int[] sequence = positions(schema, key, e.getKey());
            int[] fields = positions(schema, key, e.getValue());
            int[] all = concat(sequence, fields);
            for (int pos : all) {
                check(
                        !isKey(schema, pos),
                        "option '%s' names primary key column '%s'; a sequence group holds"
                                + " non-key columns",
                        key,
                        rowType.field(pos).name());
                check(
                        owner[pos] == -1 || owner[pos] == groups.size(),
                        "option '%s': column '%s' is already in another sequence group",
                        key,
                        rowType.field(pos).name());
                owner[pos] = groups.size();
            }
            groups.add(new SequenceGroup(KeyFields.of(rowType, sequence), sequence, all));
        }
        return groups;
    }

    private static FieldAggregator[] aggregators(TableMetadata metadata, TableOptions options) {
        Schema schema = metadata.schema();
        RowType rowType = schema.rowType();
        Map<String, AggregateFunction> functions =
                options.fieldValues(MergeOptions.FIELD_AGGREGATE_FUNCTION);
        Map<String, Boolean> ignoreRetract = options.fieldValues(MergeOptions.FIELD_IGNORE_RETRACT);
        Map<String, String> delimiters = options.fieldValues(MergeOptions.FIELD_LIST_AGG_DELIMITER);
        for (String field : concatKeys(functions, ignoreRetract, delimiters)) {
            int pos = rowType.indexOf(field);
            check(
                    pos >= 0,
                    "option 'fields.%s.*' names column '%s', which does not exist (columns: %s)",
                    field,
                    field,
                    rowType.names());
        }
        FieldAggregator[] out = new FieldAggregator[rowType.size()];
        for (int pos = 0; pos < out.length; pos++) {
            String name = rowType.field(pos).name();
            if (isKey(schema, pos)) {
                check(
                        !functions.containsKey(name),
                        "option 'fields.%s.aggregate-function': '%s' is a primary key column,"
                                + " which is not aggregated",
                        name,
                        name);
                continue;
            }
            AggregateFunction f =
                    functions.getOrDefault(name, AggregateFunction.LAST_NON_NULL_VALUE);
            out[pos] =
                    FieldAggregator.of(
                            f,
                            pos,
                            rowType,
                            ignoreRetract.getOrDefault(name, false),
                            delimiters.getOrDefault(
                                    name, MergeOptions.FIELD_LIST_AGG_DELIMITER.defaultValue()));
        }
        return out;
    }

    private static List<String> concatKeys(Map<String, ?>... maps) {
        List<String> out = new ArrayList<>();
        for (Map<String, ?> m : maps) {
            out.addAll(m.keySet());
        }
        return out;
    }

    private static int[] positions(Schema schema, String key, String names) {
        RowType rowType = schema.rowType();
        String[] parts = names.split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String name = parts[i].trim();
            out[i] = rowType.indexOf(name);
            check(
                    out[i] >= 0,
                    "option '%s' names column '%s', which does not exist (columns: %s)",
                    key,
                    name,
                    rowType.names());
        }
        return out;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static boolean isKey(Schema schema, int pos) {
        for (int k : schema.primaryKeyPositions()) {
            if (k == pos) {
                return true;
            }
        }
        return false;
    }

    /** The table's {@code sequence.field} as a one-field key, or null. */
    static KeyFields sequenceField(TableMetadata metadata) {
        String name = metadata.options().sequenceField();
        if (name == null) {
            return null;
        }
        RowType rowType = metadata.schema().rowType();
        int pos = rowType.indexOf(name);
        check(
                pos >= 0,
                "Invalid option 'sequence.field': column '%s' does not exist (columns: %s)",
                name,
                rowType.names());
        return KeyFields.of(rowType, new int[] {pos});
    }

    static String name(Enum<?> value) {
        return value.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    private static void check(boolean condition, String format, Object... args) {
        ValidationException.check(condition, format, args);
    }
}
