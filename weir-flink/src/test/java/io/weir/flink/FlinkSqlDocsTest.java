package io.weir.flink;

import io.weir.flink.catalog.WeirCatalogFactory;
import io.weir.flink.catalog.system.SystemTable;
import io.weir.flink.table.WeirDynamicTableFactory;
import io.weir.options.TableOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.description.HtmlFormatter;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The option and system-table tables of {@code docs/flink-sql.md} are generated from the code. This
 * test fails when they are stale; run it with {@code -Dweir.regenerate-docs=true} to rewrite them.
 */
class FlinkSqlDocsTest {
    private static final Path DOC = Path.of("..", "docs", "flink-sql.md");
    private static final Pattern SECTION =
            Pattern.compile(
                    "(<!-- generated: (\\S+) -->\n)(.*?)(<!-- end of generated -->)",
                    Pattern.DOTALL);

    @Test
    void generatedSectionsAreUpToDate() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        Map<String, String> sections = sections();
        Matcher m = SECTION.matcher(doc);
        StringBuilder updated = new StringBuilder();
        while (m.find()) {
            String content = sections.remove(m.group(2));
            assertThat(content).as("generated section %s", m.group(2)).isNotNull();
            m.appendReplacement(
                    updated, Matcher.quoteReplacement(m.group(1) + content + m.group(4)));
        }
        m.appendTail(updated);
        assertThat(sections.keySet()).as("sections missing from %s", DOC).isEmpty();
        if (Boolean.getBoolean("weir.regenerate-docs")) {
            Files.writeString(DOC, updated.toString(), StandardCharsets.UTF_8);
            return;
        }
        assertThat(doc)
                .as("%s is stale: run this test with -Dweir.regenerate-docs=true", DOC)
                .isEqualTo(updated.toString());
    }

    private static Map<String, String> sections() {
        Map<String, String> sections = new LinkedHashMap<>();
        WeirDynamicTableFactory connector = new WeirDynamicTableFactory();
        sections.put(
                "connector-options",
                options(
                        connector,
                        Stream.concat(
                                        connector.requiredOptions().stream(),
                                        connector.optionalOptions().stream())
                                .filter(o -> !TableOptions.ALL.containsKey(o.key()))));
        sections.put("table-options", TableOptions.describe());
        WeirCatalogFactory catalog = new WeirCatalogFactory();
        sections.put(
                "catalog-options",
                options(
                        catalog,
                        Stream.concat(
                                catalog.requiredOptions().stream(),
                                catalog.optionalOptions().stream())));
        for (SystemTable table : SystemTable.values()) {
            if (table.isMetadata()) {
                sections.put("system-table-" + table.suffix(), columns(table.rowType()));
            }
        }
        return sections;
    }

    private static String options(Factory factory, Stream<ConfigOption<?>> options) {
        Set<ConfigOption<?>> required = factory.requiredOptions();
        return "| key | required | default | description |\n|---|---|---|---|\n"
                + options.sorted(Comparator.comparing(ConfigOption::key))
                        .map(
                                o ->
                                        "| `"
                                                + o.key()
                                                + "` | "
                                                + (required.contains(o) ? "yes" : "no")
                                                + " | "
                                                + (o.hasDefaultValue()
                                                        ? o.defaultValue()
                                                        : "(none)")
                                                + " | "
                                                + new HtmlFormatter().format(o.description())
                                                + " |")
                        .collect(Collectors.joining("\n"))
                + "\n";
    }

    private static String columns(RowType type) {
        return "| column | type | description |\n|---|---|---|\n"
                + type.getFields().stream()
                        .map(
                                f ->
                                        "| `"
                                                + f.getName()
                                                + "` | "
                                                + f.getType().asSummaryString()
                                                + " | "
                                                + f.getDescription().orElse("")
                                                + " |")
                        .collect(Collectors.joining("\n"))
                + "\n";
    }
}
