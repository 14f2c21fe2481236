package io.weir.cli;

import io.weir.options.StorageOptions;

import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --conf KEY=VALUE}: the storage options ({@code s3.*}, {@code hadoop.*}) of a table or
 * warehouse that is not on local disk. What is not given comes from the environment, through the
 * AWS SDK's default chains (AWS_ACCESS_KEY_ID, AWS_REGION, AWS_ENDPOINT_URL, profiles).
 */
public final class StorageMixin {
    @Option(
            names = "--conf",
            paramLabel = "KEY=VALUE",
            description =
                    "A storage option, e.g. s3.endpoint=http://127.0.0.1:9000 (repeatable;"
                            + " docs/options.md lists them).")
    Map<String, String> conf = new LinkedHashMap<>();

    /**
     * The options given, validated.
     *
     * @throws IllegalArgumentException naming an unknown option or an invalid value
     */
    public StorageOptions storage() {
        for (String key : conf.keySet()) {
            if (!StorageOptions.isStorageOption(key)) {
                throw new IllegalArgumentException(
                        "--conf "
                                + key
                                + ": not a storage option (they start with s3. or hadoop.;"
                                + " table options are set with SQL)");
            }
        }
        return StorageOptions.of(conf);
    }
}
