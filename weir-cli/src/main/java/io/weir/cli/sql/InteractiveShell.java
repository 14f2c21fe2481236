package io.weir.cli.sql;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The interactive mode of {@code weir sql}, like the Flink SQL client's: reads lines, runs each
 * statement as soon as its {@code ;} is typed, reports a failing statement and goes on with the
 * next one. {@code QUIT;} or {@code EXIT;} (or the end of input) ends it; {@code HELP;} lists what
 * it takes. Prompts ({@code Flink SQL>}, then {@code >} while a statement continues) are shown only
 * on a terminal, so piped input prints nothing but results.
 */
public final class InteractiveShell {
    static final String PROMPT = "Flink SQL> ";
    static final String CONTINUATION = "> ";

    private static final String HELP =
            String.join(
                    "\n",
                    "Statements end with ';' and run as soon as it is typed; a failing statement"
                            + " is reported and the session goes on.",
                    "  SET 'key' = 'value';   change the configuration (SET; lists it)",
                    "  RESET ['key'];         back to the configuration the session started with",
                    "  QUIT; or EXIT;         end the session (so does end of input, Ctrl-D)",
                    "Any Flink SQL statement: CREATE CATALOG, CREATE TABLE, INSERT, SELECT, CALL,"
                            + " SHOW, DESCRIBE, EXPLAIN, BEGIN STATEMENT SET; ... END; (docs/cli.md)");

    private final ScriptRunner runner;
    private final BufferedReader in;
    private final PrintWriter prompts;
    private final boolean showPrompts;
    private final Consumer<StatementException> failures;

    /**
     * @param prompts where prompts and help go (the terminal)
     * @param showPrompts whether to show prompts (on a terminal)
     * @param failures reports a failed statement
     */
    public InteractiveShell(
            ScriptRunner runner,
            BufferedReader in,
            PrintWriter prompts,
            boolean showPrompts,
            Consumer<StatementException> failures) {
        this.runner = runner;
        this.in = in;
        this.prompts = prompts;
        this.showPrompts = showPrompts;
        this.failures = failures;
    }

    /**
     * Reads and runs statements until QUIT or the end of input.
     *
     * @return the number of statements that failed
     * @throws IOException if the input cannot be read
     */
    public int run() throws IOException {
        StringBuilder buffer = new StringBuilder();
        int bufferLine = 1; // the input line on which the buffer starts
        int linesRead = 0;
        int number = 0;
        int failed = 0;
        prompt(PROMPT);
        String line;
        while ((line = in.readLine()) != null) {
            linesRead++;
            buffer.append(line).append('\n');
            StatementSplitter.Prefix typed = StatementSplitter.complete(buffer.toString());
            for (SqlStatement s : typed.complete()) {
                SqlStatement numbered =
                        new SqlStatement(++number, bufferLine + s.line() - 1, s.text());
                Boolean quit = runOne(numbered);
                if (quit == null) {
                    failed++;
                } else if (quit) {
                    return failed;
                }
            }
            if (typed.rest().isEmpty()) {
                buffer.setLength(0);
                bufferLine = linesRead + 1;
                prompt(PROMPT);
            } else {
                bufferLine += typed.restLine() - 1;
                buffer = new StringBuilder(typed.rest());
                prompt(CONTINUATION);
            }
        }
        // The end of input ends the last statement, as in a script.
        List<SqlStatement> last;
        try {
            last = StatementSplitter.split(buffer.toString());
        } catch (IllegalArgumentException e) {
            failures.accept(
                    new StatementException(
                            new SqlStatement(number + 1, bufferLine, buffer.toString().strip()),
                            "Failed",
                            e));
            return failed + 1;
        }
        for (SqlStatement s : last) {
            if (runOne(new SqlStatement(++number, bufferLine + s.line() - 1, s.text())) == null) {
                failed++;
            }
        }
        if (showPrompts) {
            prompts.println();
            prompts.flush();
        }
        return failed;
    }

    /** Runs one statement: whether to quit, or null if it failed (and was reported). */
    private Boolean runOne(SqlStatement statement) {
        if (statement.text().strip().toUpperCase(Locale.ROOT).equals("HELP")) {
            prompts.println(HELP);
            prompts.flush();
            return false;
        }
        try {
            return runner.runOne(statement);
        } catch (StatementException e) {
            failures.accept(e);
            return null;
        }
    }

    private void prompt(String prompt) {
        if (showPrompts) {
            prompts.print(prompt);
            prompts.flush();
        }
    }
}
