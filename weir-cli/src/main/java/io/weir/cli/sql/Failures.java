package io.weir.cli.sql;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns an exception chain into a short message: the top message and the root cause. */
public final class Failures {
    private Failures() {}

    /**
     * The lines that say why something failed: the first meaningful message of the chain and, if it
     * does not already say it, the root cause ({@code Caused by: class: message}).
     */
    public static List<String> describe(Throwable failure) {
        Throwable top = unwrap(failure);
        Throwable root = top;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        List<String> lines = new ArrayList<>();
        String topText = hasMessage(top) ? top.getMessage().strip() : top.getClass().getName();
        lines.add(topText);
        if (root != top) {
            String rootText =
                    hasMessage(root)
                            ? root.getClass().getName() + ": " + root.getMessage().strip()
                            : root.getClass().getName();
            if (!hasMessage(root) || !topText.contains(root.getMessage().strip())) {
                lines.add("Caused by: " + rootText);
            }
        }
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
