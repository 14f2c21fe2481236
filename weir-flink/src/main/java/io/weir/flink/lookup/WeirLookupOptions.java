package io.weir.flink.lookup;

import io.weir.exceptions.ValidationException;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The options of a Weir table used as the dimension table of a lookup join (in {@code WITH (...)}
 * or an {@code OPTIONS} hint). See {@code docs/lookup-join.md}.
 */
public final class WeirLookupOptions {
    private WeirLookupOptions() {}

    public static final ConfigOption<Duration> REFRESH_INTERVAL =
            ConfigOptions.key("lookup.refresh-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "How often a lookup join looks for new commits of the dimension table;"
                                    + " on a new one it reloads the file groups the commits changed"
                                    + " before answering the lookup that noticed it. Checked when a"
                                    + " lookup arrives; 0 checks on every lookup.");

    public static final ConfigOption<String> LOCAL_DIR =
            ConfigOptions.key("lookup.local-dir")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The local directory of a lookup join's index files (memory-mapped;"
                                    + " each subtask makes its own directory in it and deletes it"
                                    + " when it closes). Default: the JVM's java.io.tmpdir.");

    /** Every lookup option, for a factory's {@code optionalOptions()}. */
    public static Set<ConfigOption<?>> options() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>();
        options.add(REFRESH_INTERVAL);
        options.add(LOCAL_DIR);
        return options;
    }

    /** The refresh interval in {@code options}. */
    static Duration refreshInterval(Map<String, String> options) {
        Duration interval = get(options, REFRESH_INTERVAL);
        ValidationException.check(
                !interval.isNegative(),
                "Invalid value %s for option '%s': must not be negative",
                interval,
                REFRESH_INTERVAL.key());
        return interval;
    }

    /** The local directory in {@code options}, or null for the default. */
    static String localDir(Map<String, String> options) {
        return get(options, LOCAL_DIR);
    }

    private static <T> T get(Map<String, String> options, ConfigOption<T> option) {
        try {
            return Configuration.fromMap(options).get(option);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    "Invalid value for option '" + option.key() + "': " + e.getMessage(), e);
        }
    }
}
