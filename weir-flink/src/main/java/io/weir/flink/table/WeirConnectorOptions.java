package io.weir.flink.table;

import io.weir.options.TableOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Flink options of the {@code weir} connector. The table options are not declared here: each is
 * derived from its {@link io.weir.options.ConfigOption} in {@link TableOptions#ALL} (same key,
 * default and description), and their values are always validated by the core parsers, so Flink and
 * the core cannot disagree about what a table option means.
 */
public final class WeirConnectorOptions {
    private WeirConnectorOptions() {}

    public static final ConfigOption<String> PATH =
            ConfigOptions.key("path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Location of the table: a local path or a file: URI. If no table exists"
                                    + " there, the first use of the SQL table creates one from its"
                                    + " DDL; if one exists, the DDL must match it.");

    /** Parallelism of the writers; by default the planner's. Not stored with the table. */
    public static final ConfigOption<Integer> SINK_PARALLELISM = FactoryUtil.SINK_PARALLELISM;

    /** Every table option, by key, as a Flink option derived from the core option. */
    public static final Map<String, ConfigOption<?>> TABLE_OPTIONS = deriveTableOptions();

    /**
     * The Flink option of a core option. Integers, longs, booleans and strings keep their type,
     * since Flink reads them as the core does (except that the core also trims blanks). Enums,
     * memory sizes and durations become string options: Flink's parsers for those accept other
     * spellings than the core's ("partial-update" for an enum), and the core reads the value.
     */
    static ConfigOption<?> toFlink(io.weir.options.ConfigOption<?> core) {
        ConfigOptions.OptionBuilder key = ConfigOptions.key(core.key());
        ConfigOption<?> option =
                switch (core.type().getSimpleName()) {
                    case "Integer" -> withDefault(key.intType(), (Integer) core.defaultValue());
                    case "Long" -> withDefault(key.longType(), (Long) core.defaultValue());
                    case "Boolean" -> withDefault(key.booleanType(), (Boolean) core.defaultValue());
                    default -> withDefault(key.stringType(), defaultText(core));
                };
        return option.withDescription(core.description());
    }

    /**
     * Validates the table options among {@code options} with the core parsers and returns them.
     * Other keys are ignored here (the factory helper rejects the unknown ones).
     *
     * @throws ValidationException naming the option and what is valid, for an invalid value
     */
    public static TableOptions parseTableOptions(Map<String, String> options) {
        try {
            return TableOptions.of(tableOptions(options));
        } catch (IllegalArgumentException e) {
            throw new ValidationException(e.getMessage(), e);
        }
    }

    /** The entries of {@code options} that are table options (stored with the table). */
    public static Map<String, String> tableOptions(Map<String, String> options) {
        Map<String, String> table = new TreeMap<>();
        options.forEach(
                (k, v) -> {
                    if (TableOptions.ALL.containsKey(k)) {
                        table.put(k, v);
                    }
                });
        return table;
    }

    /**
     * Checks that a location option names the local file system (a plain path or a {@code file:}
     * URI, what {@link io.weir.io.LocalFileIO} reads) and returns it.
     *
     * @throws ValidationException naming the option, for any other scheme
     */
    public static String localLocation(ConfigOption<String> option, String location) {
        int colon = location.indexOf(':');
        // A scheme has at least two characters, so "C:\..." is a path.
        boolean hasScheme =
                colon > 1 && location.substring(0, colon).matches("[A-Za-z][A-Za-z0-9+.-]*");
        if (hasScheme && !location.startsWith("file:")) {
            throw new ValidationException(
                    "Invalid value '"
                            + location
                            + "' for option '"
                            + option.key()
                            + "': expected a local path or a file: URI (no other file system is"
                            + " supported yet)");
        }
        return location;
    }

    private static <T> ConfigOption<T> withDefault(
            ConfigOptions.TypedConfigOptionBuilder<T> builder, T defaultValue) {
        return defaultValue == null ? builder.noDefaultValue() : builder.defaultValue(defaultValue);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String defaultText(io.weir.options.ConfigOption core) {
        return core.defaultValue() == null ? null : core.format(core.defaultValue());
    }

    private static Map<String, ConfigOption<?>> deriveTableOptions() {
        Map<String, ConfigOption<?>> options = new LinkedHashMap<>();
        TableOptions.ALL.forEach((key, core) -> options.put(key, toFlink(core)));
        return Collections.unmodifiableMap(options);
    }
}
