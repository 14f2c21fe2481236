package io.weir.options;

import java.util.List;

/**
 * The table options of the merge engines (docs/merge-engines.md). Part of {@link TableOptions#ALL};
 * declared apart to keep each options class about one concern. The {@code fields.*} options are
 * templates: {@code <field>} stands for a column name.
 */
public final class MergeOptions {
    private MergeOptions() {}

    /** The prefix of the per-field options. */
    public static final String FIELDS_PREFIX = "fields.";

    public static final ConfigOption<Boolean> IGNORE_DELETE =
            ConfigOption.key("ignore-delete")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether the writer drops retractions (-U and -D records) of a table with"
                                    + " a primary key instead of applying them, whatever the merge"
                                    + " engine.");

    public static final ConfigOption<AggregateFunction> FIELD_AGGREGATE_FUNCTION =
            ConfigOption.key("fields.<field>.aggregate-function")
                    .enumType(AggregateFunction.class)
                    .noDefaultValue()
                    .withDescription(
                            "With merge-engine 'aggregation': how the field's values of one key are"
                                    + " folded. A non-key field without it keeps its latest non-null"
                                    + " value (last-non-null-value).");

    public static final ConfigOption<Boolean> FIELD_IGNORE_RETRACT =
            ConfigOption.key("fields.<field>.ignore-retract")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "With merge-engine 'aggregation': whether a retraction leaves the field's"
                                    + " aggregate as it is, for a function that cannot retract"
                                    + " (otherwise a retraction of it fails the write).");

    public static final ConfigOption<String> FIELD_LIST_AGG_DELIMITER =
            ConfigOption.key("fields.<field>.list-agg-delimiter")
                    .stringType()
                    .defaultValue(",")
                    .withDescription("The delimiter of the 'listagg' aggregate function.");

    public static final ConfigOption<String> FIELD_SEQUENCE_GROUP =
            ConfigOption.key("fields.<sequence-fields>.sequence-group")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "With merge-engine 'partial-update': a sequence group. The key names"
                                    + " its sequence fields, the value the fields they order (both"
                                    + " comma-separated). A record"
                                    + " updates the group (all its fields, nulls included) only if"
                                    + " its sequence fields are not all null and not less than the"
                                    + " key's; a retraction that passes the same test sets the"
                                    + " group's fields to null.");

    /** The per-field option templates, by the suffix after the field part. */
    private static final List<ConfigOption<?>> FIELD_TEMPLATES =
            List.of(
                    FIELD_AGGREGATE_FUNCTION,
                    FIELD_IGNORE_RETRACT,
                    FIELD_LIST_AGG_DELIMITER,
                    FIELD_SEQUENCE_GROUP);

    /** The options of this class, in documentation order. */
    public static final List<ConfigOption<?>> ALL =
            List.of(
                    IGNORE_DELETE,
                    FIELD_AGGREGATE_FUNCTION,
                    FIELD_IGNORE_RETRACT,
                    FIELD_LIST_AGG_DELIMITER,
                    FIELD_SEQUENCE_GROUP);

    /**
     * The template option of a {@code fields.<field>.<suffix>} key, under that key; null if the key
     * is not of that form or its suffix is unknown.
     */
    static ConfigOption<?> fieldOption(String key) {
        String suffix = suffix(key);
        if (suffix == null) {
            return null;
        }
        for (ConfigOption<?> template : FIELD_TEMPLATES) {
            if (template.key().endsWith("." + suffix)) {
                return template.withKey(key);
            }
        }
        return null;
    }

    /** The field part of a {@code fields.<field>.<suffix>} key. */
    public static String field(String key) {
        return key.substring(FIELDS_PREFIX.length(), key.lastIndexOf('.'));
    }

    /** The suffix of a {@code fields.<field>.<suffix>} key, or null if the key has no field. */
    static String suffix(String key) {
        int dot = key.lastIndexOf('.');
        if (!key.startsWith(FIELDS_PREFIX) || dot <= FIELDS_PREFIX.length()) {
            return null;
        }
        return key.substring(dot + 1);
    }

    /** Whether {@code key} is a per-field option with this template. */
    public static boolean matches(String key, ConfigOption<?> template) {
        String suffix = suffix(key);
        return suffix != null && template.key().endsWith("." + suffix);
    }
}
