package io.weir.cli;

import io.weir.cli.format.ResultFormat;
import io.weir.cli.format.ResultPrinter;
import io.weir.cli.sql.Failures;
import io.weir.cli.sql.FlinkSession;
import io.weir.cli.sql.InteractiveShell;
import io.weir.cli.sql.ScriptRunner;
import io.weir.cli.sql.SqlStatement;
import io.weir.cli.sql.StatementException;
import io.weir.cli.sql.StatementSplitter;

import org.apache.flink.table.api.config.TableConfigOptions;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code weir sql}: runs Flink SQL statements on an embedded local Flink (or a running cluster with
 * {@code -Dexecution.target=remote}): a script, or interactively.
 */
@Command(
        name = "sql",
        description = {
            "Run Flink SQL statements, in order, on an embedded local Flink (one JVM), or on a"
                    + " running cluster with -Dexecution.target=remote -Drest.address=HOST"
                    + " -Drest.port=PORT.",
            "Without -f or -e (or with -f -), statements are read from standard input:"
                    + " interactively, with a prompt, when it is a terminal (or with"
                    + " --interactive); else as a script.",
            "Queries print their rows to stdout; status lines and errors go to stderr."
        },
        sortOptions = false)
public final class SqlCommand implements Callable<Integer> {

    /** Exit code when a statement fails (or the script cannot be read or split). */
    public static final int FAILED = 1;

    /** Longer failure messages (a parser's list of expected tokens) are cut without --verbose. */
    private static final int MAX_MESSAGE_LINES = 20;

    static final class Source {
        @Option(
                names = {"-f", "--file"},
                paramLabel = "FILE",
                description = "Script to run ('-' reads standard input).")
        String file;

        @Option(
                names = {"-e", "--execute"},
                paramLabel = "STATEMENTS",
                description = "Statements to run, separated by ';'.")
        String statements;
    }

    @ArgGroup(multiplicity = "0..1")
    Source source;

    @Option(
            names = {"-i", "--interactive"},
            description =
                    "Read statements from standard input one at a time, running each when its ';'"
                            + " is read and going on after a failure (the default when standard"
                            + " input is a terminal and no -f or -e is given, or -f -).")
    boolean interactive;

    @Option(
            names = "--format",
            paramLabel = "table|csv",
            description =
                    "How queries print: a table like the SQL client's tableau mode, or CSV with a"
                            + " header (an 'op' column first for streaming changelogs)."
                            + " Default: ${DEFAULT-VALUE}",
            defaultValue = "table",
            converter = FormatConverter.class)
    ResultFormat format;

    @Option(
            names = "-D",
            paramLabel = "KEY=VALUE",
            description =
                    "Flink configuration to start with, e.g."
                            + " -Dexecution.runtime-mode=batch (SET can change it later).")
    Map<String, String> configuration = new LinkedHashMap<>();

    @Option(names = "--verbose", description = "Print the stack trace of a failure.")
    boolean verbose;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean fromStdin = source == null || "-".equals(source.file);
        boolean terminal = System.console() != null;
        if (interactive && !fromStdin) {
            err.println("[ERROR] --interactive reads standard input: leave out -f FILE and -e");
            err.flush();
            return FAILED;
        }
        if (interactive || (fromStdin && terminal)) {
            return interactive(out, err, terminal);
        }
        List<SqlStatement> statements;
        try {
            statements = StatementSplitter.split(script());
        } catch (NoSuchFileException e) {
            err.println("[ERROR] No such file: " + e.getMessage());
            err.flush();
            return FAILED;
        } catch (IOException | IllegalArgumentException e) {
            err.println("[ERROR] Cannot read the script: " + e.getMessage());
            err.flush();
            return FAILED;
        }
        try (FlinkSession session = new FlinkSession(configuration)) {
            ResultPrinter printer = printer(session, out);
            new ScriptRunner(session, printer, err).run(statements);
            return 0;
        } catch (StatementException e) {
            report(err, e);
            return FAILED;
        } catch (Exception e) {
            err.println("[ERROR] " + String.join("\n  ", Failures.describe(e)));
            if (verbose) {
                e.printStackTrace(err);
            }
            err.flush();
            return FAILED;
        }
    }

    /** Prints results in the chosen format, as wide as the session's display option allows. */
    private ResultPrinter printer(FlinkSession session, PrintWriter out) {
        return format.newPrinter(
                out,
                () ->
                        session.tableEnvironment()
                                .getConfig()
                                .get(TableConfigOptions.DISPLAY_MAX_COLUMN_WIDTH));
    }

    /** The interactive mode; exits with {@link #FAILED} if any statement failed. */
    private int interactive(PrintWriter out, PrintWriter err, boolean terminal) {
        try (FlinkSession session = new FlinkSession(configuration)) {
            ResultPrinter printer = printer(session, out);
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            int failed =
                    new InteractiveShell(
                                    new ScriptRunner(session, printer, err),
                                    in,
                                    out,
                                    terminal,
                                    e -> report(err, e))
                            .run();
            return failed == 0 ? 0 : FAILED;
        } catch (Exception e) {
            err.println("[ERROR] " + String.join("\n  ", Failures.describe(e)));
            if (verbose) {
                e.printStackTrace(err);
            }
            err.flush();
            return FAILED;
        }
    }

    /** Reports a failed statement: which one, why (cut to a screen without --verbose). */
    private void report(PrintWriter err, StatementException e) {
        SqlStatement s = e.statement();
        err.println("[ERROR] " + capitalize(s.describe()) + " failed: " + s.firstLine());
        List<String> lines = Failures.describe(e).stream().flatMap(String::lines).toList();
        int shown = verbose ? lines.size() : Math.min(lines.size(), MAX_MESSAGE_LINES);
        for (String line : lines.subList(0, shown)) {
            err.println("  " + line);
        }
        if (shown < lines.size()) {
            err.println("  ... (" + (lines.size() - shown) + " more lines)");
        }
        if (verbose) {
            e.getCause().printStackTrace(err);
        } else {
            err.println("  (--verbose prints the stack trace)");
        }
        err.flush();
    }

    private String script() throws IOException {
        if (source == null) {
            return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (source.statements != null) {
            return source.statements;
        }
        if (source.file.equals("-")) {
            return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return Files.readString(Path.of(source.file), StandardCharsets.UTF_8);
    }

    private static String capitalize(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** Accepts the format in any case. */
    static final class FormatConverter implements picocli.CommandLine.ITypeConverter<ResultFormat> {
        @Override
        public ResultFormat convert(String value) {
            return ResultFormat.valueOf(value.toUpperCase(java.util.Locale.ROOT));
        }
    }
}
