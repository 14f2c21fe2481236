package io.weir.util;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads with names that say what they do (visible in thread dumps). */
public final class DaemonThreads {
    private DaemonThreads() {}

    /** Threads named {@code prefix-1}, {@code prefix-2}, ... */
    public static ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
