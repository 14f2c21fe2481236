package io.weir.bench.e2e.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What this JVM spent during a phase: wall time, CPU time of the whole process (user + sys, every
 * thread: Flink's tasks, the JIT, the GC), GC time, and the peak resident set so far.
 */
final class ProcessMeter {
    private static final Path STATUS = Path.of("/proc/self/status");

    private final long startNanos;
    private final long startCpuNanos;
    private final long startGcMillis;

    private ProcessMeter() {
        this.startGcMillis = gcMillis();
        this.startCpuNanos = cpuNanos();
        this.startNanos = System.nanoTime();
    }

    static ProcessMeter start() {
        return new ProcessMeter();
    }

    /** The figures since {@link #start()}. */
    JsonLine stop(Phase phase) {
        long nanos = System.nanoTime() - startNanos;
        long cpu = cpuNanos() - startCpuNanos;
        long gc = gcMillis() - startGcMillis;
        return new JsonLine()
                .put("phase", phase.id())
                .put("seconds", nanos / 1e9)
                .put("cpu_s", cpu / 1e9)
                .put("gc_s", gc / 1e3)
                .put("peak_rss_mb", peakRssKb() / 1024.0);
    }

    /** Process CPU time (user + sys of all threads), in ns. */
    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static long gcMillis() {
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            millis += Math.max(0, gc.getCollectionTime());
        }
        return millis;
    }

    /** VmHWM of /proc/self/status: the peak resident set of the process so far, or -1. */
    static long peakRssKb() {
        try (Stream<String> lines = Files.lines(STATUS)) {
            return lines.filter(l -> l.startsWith("VmHWM:"))
                    .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
                    .findFirst()
                    .orElse(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Bytes of the regular files under {@code dir} (0 if it does not exist). */
    static long bytesUnder(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(
                            f -> {
                                try {
                                    return Files.size(f);
                                } catch (IOException e) {
                                    return 0; // deleted meanwhile
                                }
                            })
                    .sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
