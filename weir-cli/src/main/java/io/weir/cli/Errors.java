package io.weir.cli;

import io.weir.exceptions.WeirException;

import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.function.ToIntFunction;

/** One line for an error a user must act on: its message and its causes' messages, in order. */
final class Errors {
    private Errors() {}

    /**
     * Runs a table command's body on the command's output and returns its exit code: an error that
     * the user must act on (bad input, a damaged table, unreachable storage) prints one line {@code
     * Error: ...} and exits with 1.
     */
    static int exitCode(CommandSpec spec, ToIntFunction<PrintWriter> body) {
        try {
            return body.applyAsInt(spec.commandLine().getOut());
        } catch (WeirException | IllegalArgumentException e) {
            spec.commandLine().getErr().println("Error: " + e.getMessage());
            return 1;
        } catch (UncheckedIOException e) {
            spec.commandLine().getErr().println("Error: " + describe(e));
            return 1;
        }
    }

    static String describe(Throwable error) {
        StringBuilder line = new StringBuilder(String.valueOf(error.getMessage()));
        for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && line.indexOf(message) < 0) {
                line.append(": ").append(message);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return line.toString();
    }
}
