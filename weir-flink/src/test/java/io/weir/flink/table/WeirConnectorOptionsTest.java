package io.weir.flink.table;

import io.weir.options.StorageOptions;
import io.weir.options.TableOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.description.HtmlFormatter;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WeirConnectorOptionsTest {

    @Test
    void everyTableOptionIsDerivedWithItsKeyDefaultAndDescription() {
        assertThat(WeirConnectorOptions.TABLE_OPTIONS.keySet())
                .containsExactlyElementsOf(TableOptions.ALL.keySet());
        TableOptions.ALL.forEach(
                (key, core) -> {
                    ConfigOption<?> flink = WeirConnectorOptions.TABLE_OPTIONS.get(key);
                    assertThat(flink.key()).isEqualTo(key);
                    assertThat(new HtmlFormatter().format(flink.description()))
                            .isEqualTo(core.description());
                    assertThat(flink.hasDefaultValue()).isEqualTo(core.defaultValue() != null);
                    if (core.defaultValue() != null) {
                        assertThat(text(flink.defaultValue())).isEqualTo(format(core));
                    }
                });
    }

    @Test
    void typesAreMappedWhereFlinkReadsValuesAsTheCoreDoes() {
        assertThat(flinkDefault("bucket")).isEqualTo(4);
        assertThat(flinkDefault("commit.max-retries")).isEqualTo(10);
        assertThat(flinkDefault("write-only")).isEqualTo(false);
        // Enums and memory sizes are strings in Flink: the core parses them.
        assertThat(flinkDefault("log.codec")).isEqualTo("lz4");
        assertThat(flinkDefault("merge-engine")).isEqualTo("deduplicate");
        assertThat(flinkDefault("write-buffer-size")).isEqualTo("256 mb");
        assertThat(WeirConnectorOptions.TABLE_OPTIONS.get("sequence.field").hasDefaultValue())
                .isFalse();
    }

    /**
     * Except padded numbers and booleans: the core trims them, Flink does not (and names the
     * option).
     */
    @Test
    void flinkAcceptsTheValuesTheCoreAccepts() {
        Map<String, String> values =
                Map.of(
                        "bucket", "16",
                        "write-only", "TRUE",
                        "log.codec", "ZSTD",
                        "page-size", "32kb",
                        "merge-engine", "deduplicate");
        WeirConnectorOptions.parseTableOptions(values);
        Configuration config = Configuration.fromMap(values);
        WeirConnectorOptions.TABLE_OPTIONS.values().forEach(config::get);
    }

    @Test
    void invalidValuesFailInTheCoreWordsNamingTheOption() {
        assertThatThrownBy(() -> WeirConnectorOptions.parseTableOptions(Map.of("bucket", "0")))
                .isInstanceOf(ValidationException.class)
                .hasMessage("Invalid value '0' for option 'bucket': must be between 1 and 32768");
        // Keys that are not table options are left to the factory helper.
        assertThat(
                        WeirConnectorOptions.parseTableOptions(
                                        Map.of("path", "/x", "sink.parallelism", "x"))
                                .toMap())
                .isEmpty();
    }

    @Test
    void locationsMustBeOnAFileSystemOnTheClasspath() {
        StorageOptions none = StorageOptions.none();
        assertThat(WeirConnectorOptions.location(WeirConnectorOptions.PATH, "/tmp/t", none))
                .isEqualTo("/tmp/t");
        assertThat(WeirConnectorOptions.location(WeirConnectorOptions.PATH, "file:///tmp/t", none))
                .isEqualTo("file:///tmp/t");
        assertThat(WeirConnectorOptions.location(WeirConnectorOptions.PATH, "C:\\t", none))
                .isEqualTo("C:\\t");
        assertThatThrownBy(
                        () ->
                                WeirConnectorOptions.location(
                                        WeirConnectorOptions.PATH, "gs://bucket/t", none))
                .hasMessageStartingWith(
                        "Invalid value 'gs://bucket/t' for option 'path': No file system for"
                                + " location 'gs://bucket/t': its scheme 'gs' is not among those on"
                                + " the classpath (");
    }

    @Test
    void storageOptionsComeFromFlinkThenTheCatalogThenTheTable() {
        Configuration flink = new Configuration();
        flink.setString("s3.endpoint", "http://flink:1");
        flink.setString("s3.region", "flink-region");
        flink.setString("s3.path.style.access", "true"); // Flink's own spelling
        flink.setString("s3.some-flink-plugin-option", "x"); // not Weir's: ignored
        StorageOptions catalog =
                StorageOptions.of(Map.of("s3.endpoint", "http://catalog:2", "bucket", "4"));
        StorageOptions resolved =
                WeirConnectorOptions.storageOptions(
                        flink,
                        catalog,
                        Map.of(
                                "s3.region",
                                "table-region",
                                "s3.access-key",
                                "ak",
                                "s3.secret-key",
                                "sk",
                                "bucket",
                                "2"));
        assertThat(resolved.toMap())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "s3.endpoint", "http://catalog:2",
                                "s3.region", "table-region",
                                "s3.path-style-access", "true",
                                "s3.access-key", "ak",
                                "s3.secret-key", "sk"));
        assertThat(resolved.toString()).doesNotContain("sk}").contains("s3.secret-key=******");
        assertThatThrownBy(
                        () ->
                                WeirConnectorOptions.storageOptions(
                                        new Configuration(),
                                        StorageOptions.none(),
                                        Map.of("s3.endpoint-url", "x")))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("Unknown storage option 's3.endpoint-url'. Valid options:");
        assertThatThrownBy(
                        () ->
                                WeirConnectorOptions.storageOptions(
                                        new Configuration(),
                                        StorageOptions.none(),
                                        Map.of("s3.access-key", "only-one")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'s3.access-key' and 's3.secret-key' must be given together");
    }

    private static Object flinkDefault(String key) {
        return WeirConnectorOptions.TABLE_OPTIONS.get(key).defaultValue();
    }

    private static String text(Object value) {
        return String.valueOf(value);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String format(io.weir.options.ConfigOption core) {
        return core.format(core.defaultValue());
    }
}
