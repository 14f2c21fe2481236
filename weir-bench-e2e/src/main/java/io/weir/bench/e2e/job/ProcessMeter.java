package io.weir.bench.e2e.job;

import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What this JVM spent during a phase: wall time, CPU time of the whole process (user + sys, every
 * thread: Flink's tasks, the JIT, the GC), GC time, the peak resident set so far, and the heap: the
 * sum of the heap pools' peak usage during the phase (garbage included), and the most heap in use
 * right after a collection (what the phase kept alive).
 */
final class ProcessMeter {
    private static final Path STATUS = Path.of("/proc/self/status");

    /** The names of the heap's memory pools. */
    private static final Set<String> HEAP_POOLS =
            ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(pool -> pool.getType() == MemoryType.HEAP)
                    .map(MemoryPoolMXBean::getName)
                    .collect(Collectors.toUnmodifiableSet());

    private final long startNanos;
    private final long startCpuNanos;
    private final long startGcMillis;
    private final AtomicLong heapAfterGcMax = new AtomicLong(-1);
    private final NotificationListener gcListener = (n, handback) -> afterGc(n.getUserData());

    private ProcessMeter() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(gcListener, null, null);
            }
        }
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
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof NotificationEmitter emitter) {
                try {
                    emitter.removeNotificationListener(gcListener);
                } catch (javax.management.ListenerNotFoundException e) {
                    // not added
                }
            }
        }
        long heapPeak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                heapPeak += pool.getPeakUsage().getUsed();
            }
        }
        long afterGc = heapAfterGcMax.get();
        return new JsonLine()
                .put("phase", phase.id())
                .put("seconds", nanos / 1e9)
                .put("cpu_s", cpu / 1e9)
                .put("gc_s", gc / 1e3)
                .put("peak_rss_mb", peakRssKb() / 1024.0)
                .put("peak_heap_mb", heapPeak / (1024.0 * 1024))
                .put("heap_after_gc_max_mb", afterGc < 0 ? Double.NaN : afterGc / (1024.0 * 1024));
    }

    /** Records the heap in use after a collection (a GarbageCollectionNotificationInfo). */
    private void afterGc(Object userData) {
        if (!(userData instanceof CompositeData info)
                || !(info.get("gcInfo") instanceof CompositeData gcInfo)
                || !(gcInfo.get("memoryUsageAfterGc")
                        instanceof javax.management.openmbean.TabularData after)) {
            return;
        }
        long used = 0;
        for (Object row : after.values()) {
            CompositeData entry = (CompositeData) row;
            String pool = (String) entry.get("key");
            MemoryUsage usage = MemoryUsage.from((CompositeData) entry.get("value"));
            if (HEAP_POOLS.contains(pool)) {
                used += usage.getUsed();
            }
        }
        heapAfterGcMax.accumulateAndGet(used, Math::max);
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
