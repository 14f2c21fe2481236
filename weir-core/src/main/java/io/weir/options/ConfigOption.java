package io.weir.options;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A typed option: key, value type, default, documentation and an optional constraint. Options are
 * declared once (see {@link TableOptions}) and engines derive their own option objects from them.
 */
public final class ConfigOption<T> {
    private final String key;
    private final Class<T> type;
    private final T defaultValue;
    private final String description;
    private final Function<String, T> parser;
    private final Predicate<T> constraint;
    private final String constraintText;

    private ConfigOption(
            String key,
            Class<T> type,
            T defaultValue,
            String description,
            Function<String, T> parser,
            Predicate<T> constraint,
            String constraintText) {
        this.key = key;
        this.type = type;
        this.defaultValue = defaultValue;
        this.description = description;
        this.parser = parser;
        this.constraint = constraint;
        this.constraintText = constraintText;
    }

    public static Builder key(String key) {
        return new Builder(key);
    }

    /**
     * This option under a concrete key: for options declared as a template, such as {@code
     * fields.<field>.aggregate-function}, so that errors name the key the user wrote.
     */
    public ConfigOption<T> withKey(String concreteKey) {
        return new ConfigOption<>(
                concreteKey, type, defaultValue, description, parser, constraint, constraintText);
    }

    public String key() {
        return key;
    }

    public Class<T> type() {
        return type;
    }

    /** The default, or null when the option has none. */
    public T defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    /** For enum options: the valid values. */
    public String validValues() {
        if (type.isEnum()) {
            return Arrays.toString(
                    Arrays.stream(type.getEnumConstants())
                            .map(
                                    c ->
                                            ((Enum<?>) c)
                                                    .name()
                                                    .toLowerCase(Locale.ROOT)
                                                    .replace('_', '-'))
                            .toArray());
        }
        return constraintText == null ? type.getSimpleName() : constraintText;
    }

    /** Parses and validates a value; the error names the option and says what is valid. */
    public T parse(String text) {
        T value;
        try {
            value = parser.apply(text.trim());
        } catch (RuntimeException e) {
            // The parser's own exception (NumberFormatException, "No enum constant ...") says
            // nothing a user can act on, so it is neither quoted nor kept as the cause: the
            // message names the option, the value and what is valid.
            throw new IllegalArgumentException(
                    "Invalid value '"
                            + text
                            + "' for option '"
                            + key
                            + "': expected "
                            + expectation());
        }
        validate(value, text);
        return value;
    }

    /** Checks the constraint; {@code text} is the value as the user wrote it, for the message. */
    void validate(T value, String text) {
        if (constraint != null && value != null && !constraint.test(value)) {
            throw new IllegalArgumentException(
                    "Invalid value '" + text + "' for option '" + key + "': " + constraintText);
        }
    }

    private String expectation() {
        if (type.isEnum()) {
            return "one of " + validValues();
        }
        return switch (type.getSimpleName()) {
            case "Integer" -> "an integer";
            case "Long" -> "a long integer";
            case "Boolean" -> "true or false";
            case "MemorySize" -> "a memory size such as '64 kb' or '256 mb'";
            case "Duration" -> "a duration such as '30 s', '10 min' or '7 d'";
            default -> "a " + type.getSimpleName();
        };
    }

    /** The text form of a value (what {@link #parse} reads back). */
    public String format(T value) {
        if (value instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
        if (value instanceof Duration d) {
            return Durations.format(d);
        }
        return String.valueOf(value);
    }

    @Override
    public String toString() {
        return key;
    }

    /** A Markdown table of options: key, default, valid values, description. */
    public static String describe(Collection<ConfigOption<?>> options) {
        return "| key | default | valid values | description |\n|---|---|---|---|\n"
                + options.stream().map(ConfigOption::describeRow).collect(Collectors.joining("\n"))
                + "\n";
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String describeRow(ConfigOption o) {
        String def = o.defaultValue() == null ? "(none)" : o.format(o.defaultValue());
        return "| `"
                + o.key()
                + "` | "
                + def
                + " | "
                + o.validValues()
                + " | "
                + o.description()
                + " |";
    }

    /** Builds options: {@code key("bucket").intType().defaultValue(4).withDescription("...")}. */
    public static final class Builder {
        private final String key;

        Builder(String key) {
            this.key = Objects.requireNonNull(key);
        }

        public TypedBuilder<Integer> intType() {
            return new TypedBuilder<>(key, Integer.class, Integer::valueOf);
        }

        public TypedBuilder<Long> longType() {
            return new TypedBuilder<>(key, Long.class, Long::valueOf);
        }

        public TypedBuilder<Boolean> booleanType() {
            return new TypedBuilder<>(key, Boolean.class, Builder::parseBoolean);
        }

        public TypedBuilder<String> stringType() {
            return new TypedBuilder<>(key, String.class, s -> s);
        }

        public TypedBuilder<MemorySize> memoryType() {
            return new TypedBuilder<>(key, MemorySize.class, MemorySize::parse);
        }

        public TypedBuilder<Duration> durationType() {
            return new TypedBuilder<>(key, Duration.class, Durations::parse);
        }

        public <E extends Enum<E>> TypedBuilder<E> enumType(Class<E> type) {
            return new TypedBuilder<>(
                    key,
                    type,
                    s -> Enum.valueOf(type, s.toUpperCase(Locale.ROOT).replace('-', '_')));
        }

        private static Boolean parseBoolean(String s) {
            if (s.equalsIgnoreCase("true")) {
                return true;
            } else if (s.equalsIgnoreCase("false")) {
                return false;
            }
            throw new IllegalArgumentException("not a boolean");
        }
    }

    /** The second step of {@link Builder}. */
    public static final class TypedBuilder<T> {
        private final String key;
        private final Class<T> type;
        private final Function<String, T> parser;
        private T defaultValue;
        private Predicate<T> constraint;
        private String constraintText;

        TypedBuilder(String key, Class<T> type, Function<String, T> parser) {
            this.key = key;
            this.type = type;
            this.parser = parser;
        }

        public TypedBuilder<T> defaultValue(T value) {
            this.defaultValue = value;
            return this;
        }

        public TypedBuilder<T> noDefaultValue() {
            this.defaultValue = null;
            return this;
        }

        /** A constraint on valid values and the sentence that states it in errors. */
        public TypedBuilder<T> checking(Predicate<T> constraint, String text) {
            this.constraint = constraint;
            this.constraintText = text;
            return this;
        }

        public ConfigOption<T> withDescription(String description) {
            ConfigOption<T> option =
                    new ConfigOption<>(
                            key,
                            type,
                            defaultValue,
                            description,
                            parser,
                            constraint,
                            constraintText);
            if (defaultValue != null) {
                option.validate(defaultValue, option.format(defaultValue));
            }
            return option;
        }
    }
}
