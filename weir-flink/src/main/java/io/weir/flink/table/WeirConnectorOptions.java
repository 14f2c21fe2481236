package io.weir.flink.table;

import io.weir.io.FileIOs;
import io.weir.options.StorageOptions;
import io.weir.options.TableOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
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
                            "Location of the table: a local path, a file: URI, s3://bucket/path"
                                    + " (s3a: too) or hdfs://namenode/path. If no table exists"
                                    + " there, the first use of the SQL table creates one from its"
                                    + " DDL; if one exists, the DDL must match it.");

    /** Parallelism of the writers; by default the planner's. Not stored with the table. */
    public static final ConfigOption<Integer> SINK_PARALLELISM = FactoryUtil.SINK_PARALLELISM;

    /** Every table option, by key, as a Flink option derived from the core option. */
    public static final Map<String, ConfigOption<?>> TABLE_OPTIONS = derive(TableOptions.ALL);

    /**
     * Every storage option ({@code s3.*}), by key, as a Flink option derived from the core option.
     * They are accepted wherever a location is (table DDL, catalog) and never stored with a table.
     */
    public static final Map<String, ConfigOption<?>> STORAGE_OPTIONS = derive(StorageOptions.ALL);

    /** Flink's own S3 file systems spell this option so; read from Flink's configuration too. */
    private static final String FLINK_PATH_STYLE_ACCESS = "s3.path.style.access";

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

    /**
     * Checks the values of the connector's own options (those not stored with the table: {@code
     * write.mode}, {@code scan.*}, {@code lookup.*}, {@code sink.parallelism}) before Flink parses
     * them, so that a bad value fails in the core's words, naming the option and what is valid
     * rather than a Java class ("Could not parse value for enum class ...", "For input string").
     *
     * @throws ValidationException for the first value that does not parse
     */
    public static void checkConnectorValues(
            Map<String, String> given, java.util.Collection<ConfigOption<?>> options) {
        for (ConfigOption<?> option : options) {
            String value = given.get(option.key());
            if (value == null
                    || TABLE_OPTIONS.containsKey(option.key())
                    || STORAGE_OPTIONS.containsKey(option.key())) {
                continue;
            }
            try {
                org.apache.flink.configuration.Configuration.fromMap(Map.of(option.key(), value))
                        .get(option);
            } catch (IllegalArgumentException e) {
                String expected = expectation(option);
                throw new ValidationException(
                        "Invalid value '"
                                + value
                                + "' for option '"
                                + option.key()
                                + "'"
                                + (expected == null
                                        ? ": " + e.getMessage()
                                        : ": expected " + expected),
                        e);
            }
        }
    }

    /** What a value of the option must look like, in the core's words; null if unknown. */
    private static String expectation(ConfigOption<?> option) {
        Class<?> type = typeOf(option);
        if (type == null) {
            return null;
        }
        if (type.isEnum()) {
            return "one of " + java.util.Arrays.toString(type.getEnumConstants());
        }
        if (type == Integer.class) {
            return "an integer";
        }
        if (type == Long.class) {
            return "a long integer";
        }
        if (type == Boolean.class) {
            return "true or false";
        }
        if (type == java.time.Duration.class) {
            return "a duration such as '30 s', '10 min' or '7 d'";
        }
        return null;
    }

    /** The value type of a Flink option (Flink keeps its accessor package-private). */
    private static Class<?> typeOf(ConfigOption<?> option) {
        try {
            java.lang.reflect.Method clazz = ConfigOption.class.getDeclaredMethod("getClazz");
            clazz.setAccessible(true);
            return (Class<?>) clazz.invoke(option);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The entries of {@code options} that are table options (stored with the table). */
    public static Map<String, String> tableOptions(Map<String, String> options) {
        Map<String, String> table = new TreeMap<>();
        options.forEach(
                (k, v) -> {
                    if (TableOptions.isTableOption(k)) {
                        table.put(k, v);
                    }
                });
        return table;
    }

    /**
     * The storage options that reach a table: those of Flink's configuration (only the keys Weir
     * declares, since Flink's own file systems share the {@code s3.} prefix), overridden by the
     * catalog's, overridden by the table's DDL options.
     *
     * @throws ValidationException naming the option, for an invalid value
     */
    public static StorageOptions storageOptions(
            ReadableConfig flink, StorageOptions catalog, Map<String, String> table) {
        Map<String, String> fromFlink = new TreeMap<>();
        Map<String, String> configured = flink.toMap();
        String pathStyle = configured.get(FLINK_PATH_STYLE_ACCESS);
        if (pathStyle != null) {
            fromFlink.put(StorageOptions.S3_PATH_STYLE_ACCESS.key(), pathStyle);
        }
        configured.forEach(
                (k, v) -> {
                    if (StorageOptions.ALL.containsKey(k)) {
                        fromFlink.put(k, v);
                    }
                });
        try {
            return StorageOptions.of(fromFlink).with(catalog.toMap()).with(table);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(e.getMessage(), e);
        }
    }

    /**
     * Checks that a location option names a file system on the classpath (a plain path or a {@code
     * file:} URI, {@code s3:}/{@code s3a:}, {@code hdfs:}) that {@code storage} fits, and returns
     * it.
     *
     * @throws ValidationException naming the option, for any other scheme or unfit options
     */
    public static String location(
            ConfigOption<String> option, String location, StorageOptions storage) {
        try {
            FileIOs.forLocation(location, storage);
        } catch (io.weir.exceptions.ValidationException e) {
            throw new ValidationException(
                    "Invalid value '"
                            + location
                            + "' for option '"
                            + option.key()
                            + "': "
                            + e.getMessage(),
                    e);
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

    private static Map<String, ConfigOption<?>> derive(
            Map<String, io.weir.options.ConfigOption<?>> core) {
        Map<String, ConfigOption<?>> options = new LinkedHashMap<>();
        core.forEach((key, option) -> options.put(key, toFlink(option)));
        return Collections.unmodifiableMap(options);
    }
}
