package io.weir.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's main command, scaled down: it ingests, queries, and verifies its own result. */
class QuickStartCommandTest {
    @TempDir Path dir;

    @Test
    void ingestsQueriesAndVerifies() {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exit =
                    WeirCommand.commandLine()
                            .execute(
                                    "quickstart",
                                    "--dir",
                                    dir.resolve("w").toString(),
                                    "--changes",
                                    "30000",
                                    "--keys",
                                    "3000",
                                    "--checkpoint-interval-ms",
                                    "300");
        } finally {
            System.setOut(original);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(printed).isZero();
        // The command compares every row it reads back with the changes replayed in order, and
        // exits non-zero on any difference.
        assertThat(printed)
                .contains("commit   1:")
                .contains("Verified: the table holds exactly the");
    }
}
