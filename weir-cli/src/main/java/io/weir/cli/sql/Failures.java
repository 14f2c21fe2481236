package io.weir.cli.sql;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns an exception chain into a short message: the cause first, then the top message. */
public final class Failures {
    private Failures() {}

    /**
     * The lines that say why something failed, the cause first: a Weir exception in the chain (it
     * names the table, file or option), else the root cause, as {@code class: message}; then, if it
     * does not already say it, the first meaningful message of the chain after {@code In: } (for a
     * failed job, Flink's own message, which can run to many lines).
     */
    public static List<String> describe(Throwable failure) {
        Throwable top = unwrap(failure);
        Throwable cause = null;
        Throwable root = top;
        for (Throwable t = top; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (cause == null && t != top && t.getClass().getName().startsWith("io.weir.")) {
                cause = t;
            }
            root = t;
        }
        if (cause == null) {
            cause = root;
        }
        List<String> lines = new ArrayList<>();
        String topText = hasMessage(top) ? top.getMessage().strip() : top.getClass().getName();
        if (cause == top || (hasMessage(cause) && topText.contains(cause.getMessage().strip()))) {
            lines.add(topText);
            return lines;
        }
        lines.add(
                hasMessage(cause)
                        ? cause.getClass().getName() + ": " + cause.getMessage().strip()
                        : cause.getClass().getName());
        lines.add("In: " + topText);
        return lines;
    }

    /** Skips wrappers that add nothing: execution and reflection envelopes, our own. */
    private static Throwable unwrap(Throwable t) {
        while (t.getCause() != null
                && (t instanceof StatementException
                        || t instanceof ExecutionException
                        || t instanceof CompletionException
                        || t instanceof InvocationTargetException)) {
            t = t.getCause();
        }
        return t;
    }

    private static boolean hasMessage(Throwable t) {
        return t.getMessage() != null && !t.getMessage().isBlank();
    }
}
