package io.weir.util;

import java.util.Arrays;

/** Closing several resources at once. */
public final class Closeables {
    private Closeables() {}

    /**
     * Closes every resource, even when some fail; rethrows the first failure (a checked one
     * wrapped), with the others suppressed.
     */
    public static void closeAll(Iterable<? extends AutoCloseable> resources) {
        RuntimeException failure = null;
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                RuntimeException unchecked =
                        e instanceof RuntimeException re ? re : new RuntimeException(e);
                if (failure == null) {
                    failure = unchecked;
                } else {
                    failure.addSuppressed(unchecked);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** {@link #closeAll(Iterable)} of an array. */
    public static void closeAll(AutoCloseable[] resources) {
        closeAll(Arrays.asList(resources));
    }
}
