package io.weir.flink.table;

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
    void locationsMustBeLocal() {
        assertThat(WeirConnectorOptions.localLocation(WeirConnectorOptions.PATH, "/tmp/t"))
                .isEqualTo("/tmp/t");
        assertThat(WeirConnectorOptions.localLocation(WeirConnectorOptions.PATH, "file:///tmp/t"))
                .isEqualTo("file:///tmp/t");
        assertThat(WeirConnectorOptions.localLocation(WeirConnectorOptions.PATH, "C:\\t"))
                .isEqualTo("C:\\t");
        assertThatThrownBy(
                        () ->
                                WeirConnectorOptions.localLocation(
                                        WeirConnectorOptions.PATH, "s3://bucket/t"))
                .hasMessage(
                        "Invalid value 's3://bucket/t' for option 'path': expected a local path or"
                                + " a file: URI (no other file system is supported yet)");
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
