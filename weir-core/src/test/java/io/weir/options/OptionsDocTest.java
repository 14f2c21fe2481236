package io.weir.options;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/options.md is generated from {@link TableOptions}; this test fails when they drift. Run it
 * with {@code -Dweir.regenerate-docs=true} to rewrite the page.
 */
class OptionsDocTest {
    private static final Path DOC = Path.of("..", "docs", "options.md");

    static String expected() {
        return "# Table options\n\n"
                + "Set at table creation (`Tables.create(..., options)`, or in Flink SQL `WITH (...)`)."
                + " Unknown keys and invalid values are rejected with a message naming the option.\n\n"
                + TableOptions.describe();
    }

    @Test
    void optionsPageMatchesTheDeclarations() throws IOException {
        if (Boolean.getBoolean("weir.regenerate-docs")) {
            Files.writeString(DOC, expected());
        }
        assertThat(Files.readString(DOC))
                .as("docs/options.md is stale: rerun with -Dweir.regenerate-docs=true")
                .isEqualTo(expected());
    }
}
