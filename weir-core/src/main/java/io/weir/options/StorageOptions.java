package io.weir.options;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The options of the file system a table lives on, declared once with their defaults and
 * documentation, and a resolved, immutable view of one set of values.
 *
 * <p>Storage options are not table options: they say how to reach the storage (an endpoint, a
 * region, credentials), not what the table is, so they are never stored in table metadata. They
 * come from catalog options, table options given in DDL, the engine's configuration or, for what is
 * missing, the environment (the AWS SDK's default chains for credentials and region). Every key
 * starts with {@code s3.} or {@code hadoop.}; {@code hadoop.<key>} sets {@code <key>} in the Hadoop
 * configuration of the HDFS file system.
 */
public final class StorageOptions {

    public static final String S3_PREFIX = "s3.";
    public static final String HADOOP_PREFIX = "hadoop.";

    public static final ConfigOption<String> S3_ENDPOINT =
            ConfigOption.key("s3.endpoint")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "URI of an S3-compatible server, e.g. 'http://127.0.0.1:9000'. Without"
                                    + " it the AWS SDK resolves AWS's own endpoint for the region"
                                    + " (or AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL).");

    public static final ConfigOption<String> S3_REGION =
            ConfigOption.key("s3.region")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The bucket's region. Without it the SDK's default region chain"
                                    + " (AWS_REGION, the profile); 'us-east-1' if that finds none"
                                    + " and an endpoint is set.");

    public static final ConfigOption<Boolean> S3_PATH_STYLE_ACCESS =
            ConfigOption.key("s3.path-style-access")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Address buckets as 'endpoint/bucket/key' instead of"
                                    + " 'bucket.endpoint/key', as most self-hosted servers need.");

    public static final ConfigOption<String> S3_ACCESS_KEY =
            ConfigOption.key("s3.access-key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Access key id. With s3.secret-key, static credentials; without both,"
                                    + " the SDK's default credential chain (environment, profile,"
                                    + " container and instance roles). Never logged or stored.");

    public static final ConfigOption<String> S3_SECRET_KEY =
            ConfigOption.key("s3.secret-key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Secret access key, with s3.access-key. Never logged or stored.");

    public static final ConfigOption<MemorySize> S3_MULTIPART_PART_SIZE =
            ConfigOption.key("s3.multipart.part-size")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(8))
                    .checking(
                            v -> v.bytes() >= (5L << 20) && v.bytes() <= (1L << 30),
                            "must be between 5 mb and 1 gb (S3's limits for a part)")
                    .withDescription(
                            "Size of the parts of a multipart upload. A data file smaller than one"
                                    + " part is written with a single PUT when it is closed.");

    public static final ConfigOption<Integer> S3_MULTIPART_MAX_IN_FLIGHT =
            ConfigOption.key("s3.multipart.max-in-flight")
                    .intType()
                    .defaultValue(2)
                    .checking(v -> v >= 1 && v <= 64, "must be between 1 and 64")
                    .withDescription(
                            "Parts of one file that upload in the background at once; a writer"
                                    + " that fills one more waits. A writer holds at most this many"
                                    + " parts plus the one it fills in memory.");

    public static final ConfigOption<MemorySize> S3_READ_AHEAD =
            ConfigOption.key("s3.read-ahead")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(1))
                    .checking(
                            v -> v.bytes() >= 4096 && v.bytes() <= (64L << 20),
                            "must be between 4 kb and 64 mb")
                    .withDescription(
                            "Bytes a read requests at least from the position it reads (one ranged"
                                    + " GET); a seek within the bytes already fetched costs no request.");

    public static final ConfigOption<Integer> S3_MAX_CONNECTIONS =
            ConfigOption.key("s3.max-connections")
                    .intType()
                    .defaultValue(64)
                    .checking(v -> v >= 1, "must be at least 1")
                    .withDescription(
                            "HTTP connections of one client (one per set of storage options).");

    public static final ConfigOption<Integer> S3_MAX_RETRIES =
            ConfigOption.key("s3.max-retries")
                    .intType()
                    .defaultValue(8)
                    .checking(v -> v >= 0 && v <= 100, "must be between 0 and 100")
                    .withDescription(
                            "Retries of a request that failed with a throttling or server error"
                                    + " (500, 503 SlowDown) or a broken connection, with exponential"
                                    + " backoff and jitter.");

    /** Every storage option, by key. */
    public static final Map<String, ConfigOption<?>> ALL =
            List.of(
                            S3_ENDPOINT,
                            S3_REGION,
                            S3_PATH_STYLE_ACCESS,
                            S3_ACCESS_KEY,
                            S3_SECRET_KEY,
                            S3_MULTIPART_PART_SIZE,
                            S3_MULTIPART_MAX_IN_FLIGHT,
                            S3_READ_AHEAD,
                            S3_MAX_CONNECTIONS,
                            S3_MAX_RETRIES)
                    .stream()
                    .collect(
                            Collectors.toMap(
                                    ConfigOption::key,
                                    Function.identity(),
                                    (a, b) -> a,
                                    LinkedHashMap::new));

    private final Map<String, String> raw;
    private final Map<ConfigOption<?>, Object> values;

    private StorageOptions(Map<String, String> raw) {
        this.raw = Collections.unmodifiableMap(new TreeMap<>(raw));
        Map<ConfigOption<?>, Object> parsed = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : this.raw.entrySet()) {
            String key = e.getKey();
            if (key.startsWith(HADOOP_PREFIX)) {
                continue;
            }
            ConfigOption<?> option = ALL.get(key);
            if (option == null) {
                throw new IllegalArgumentException(
                        "Unknown storage option '"
                                + key
                                + "'. Valid options: "
                                + String.join(", ", ALL.keySet())
                                + ", and hadoop.<key> for the Hadoop configuration");
            }
            parsed.put(option, option.parse(e.getValue()));
        }
        this.values = parsed;
        boolean access = raw.containsKey(S3_ACCESS_KEY.key());
        boolean secret = raw.containsKey(S3_SECRET_KEY.key());
        if (access != secret) {
            throw new IllegalArgumentException(
                    "Invalid storage options: '"
                            + S3_ACCESS_KEY.key()
                            + "' and '"
                            + S3_SECRET_KEY.key()
                            + "' must be given together (or neither, for the AWS SDK's default"
                            + " credential chain)");
        }
    }

    /** A Markdown table of every storage option (docs/options.md is generated from this). */
    public static String describe() {
        return ConfigOption.describe(ALL.values());
    }

    /** Whether a key's value is a secret: never logged or shown. */
    public static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.equals(S3_SECRET_KEY.key())
                || k.contains("secret")
                || k.contains("password")
                || k.contains("token");
    }

    /** Whether a key names a storage option (and so never belongs in table metadata). */
    public static boolean isStorageOption(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.startsWith(S3_PREFIX) || k.startsWith(HADOOP_PREFIX);
    }

    /** The storage options among {@code options}, validated; other keys are ignored. */
    public static StorageOptions of(Map<String, String> options) {
        Map<String, String> storage = new TreeMap<>();
        options.forEach(
                (k, v) -> {
                    if (isStorageOption(k)) {
                        storage.put(k, v);
                    }
                });
        return new StorageOptions(storage);
    }

    /** {@code options} without the storage options: what a table may store. */
    public static Map<String, String> withoutStorageOptions(Map<String, String> options) {
        Map<String, String> rest = new LinkedHashMap<>();
        options.forEach(
                (k, v) -> {
                    if (!isStorageOption(k)) {
                        rest.put(k, v);
                    }
                });
        return rest;
    }

    public static StorageOptions none() {
        return new StorageOptions(Map.of());
    }

    /** The value of an option, or its default (null for options without one). */
    @SuppressWarnings("unchecked")
    public <T> T get(ConfigOption<T> option) {
        Object v = values.get(option);
        return v != null ? (T) v : option.defaultValue();
    }

    /** Whether the option was given. */
    public boolean contains(ConfigOption<?> option) {
        return values.containsKey(option);
    }

    /** The {@code hadoop.<key>} options, with the prefix removed. */
    public Map<String, String> hadoopConfiguration() {
        Map<String, String> out = new TreeMap<>();
        raw.forEach(
                (k, v) -> {
                    if (k.startsWith(HADOOP_PREFIX)) {
                        out.put(k.substring(HADOOP_PREFIX.length()), v);
                    }
                });
        return out;
    }

    /** The options as given (secrets included: never log this, use {@link #toString}). */
    public Map<String, String> toMap() {
        return raw;
    }

    /** This plus {@code overrides}, which win. */
    public StorageOptions with(Map<String, String> overrides) {
        Map<String, String> merged = new TreeMap<>(raw);
        merged.putAll(of(overrides).raw);
        return new StorageOptions(merged);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StorageOptions other && raw.equals(other.raw);
    }

    @Override
    public int hashCode() {
        return raw.hashCode();
    }

    /** The options with secrets masked: safe to log. */
    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>();
        raw.forEach((k, v) -> shown.put(k, isSecret(k) ? "******" : v));
        return shown.toString();
    }
}
