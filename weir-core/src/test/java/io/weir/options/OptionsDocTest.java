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
                + TableOptions.describe()
                + "\n# Storage options\n\n"
                + "How to reach a table that is not on local disk (docs/s3.md, docs/hdfs.md). Given"
                + " as catalog options, table options in DDL, in Flink's configuration (the table's"
                + " DDL wins over the catalog, the catalog over Flink's configuration), or with"
                + " `--conf KEY=VALUE` to the `weir` command; what is missing comes from the"
                + " environment through the AWS SDK's default chains (AWS_ACCESS_KEY_ID,"
                + " AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL, profiles, instance roles)."
                + " Storage options are never stored in table metadata; secrets are never logged."
                + " `hadoop.<key>` sets `<key>` in the Hadoop configuration of an HDFS table.\n\n"
                + StorageOptions.describe();
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
