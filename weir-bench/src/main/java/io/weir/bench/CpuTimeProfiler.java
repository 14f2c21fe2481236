package io.weir.bench;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time of the benchmark threads per operation ({@code -prof io.weir.bench.CpuTimeProfiler}):
 * {@code cpu.time.norm}, in ns per record for benchmarks with {@code @OperationsPerInvocation}.
 *
 * <p>On a shared, overloaded machine the score (wall time) grows with the load: the thread waits
 * for a core. Its CPU time does not, or much less (caches and hyper-threads are still shared), so
 * this is the figure to compare between runs there. It counts the CPU time of JMH's worker threads
 * over each iteration, minus what per-invocation setup methods report to {@link #excludeSetup}
 * (they run on the worker thread, outside the score but inside this count), divided by the
 * iteration's operations. JIT and GC threads are not counted.
 */
public final class CpuTimeProfiler implements InternalProfiler {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU nanoseconds of per-invocation setup and teardown, to leave out. */
    private static volatile long excluded;

    private Map<Long, Long> start = Map.of();
    private long excludedAtStart;

    /**
     * Called by a benchmark's {@code @Setup(Level.Invocation)} and {@code @TearDown} methods with
     * their own thread CPU time, to keep it out of {@code cpu.time.norm}.
     */
    public static void excludeSetup(long cpuNanos) {
        excluded += cpuNanos;
    }

    /** The current thread's CPU time, for {@link #excludeSetup}. */
    public static long threadCpuTime() {
        return THREADS.getCurrentThreadCpuTime();
    }

    @Override
    public String getDescription() {
        return "CPU time of the benchmark threads per operation";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        start = workerCpuTimes();
        excludedAtStart = excluded;
    }

    @Override
    public Collection<? extends Result> afterIteration(
            BenchmarkParams benchmarkParams,
            IterationParams iterationParams,
            IterationResult result) {
        long cpu = 0;
        for (Map.Entry<Long, Long> e : workerCpuTimes().entrySet()) {
            cpu += e.getValue() - start.getOrDefault(e.getKey(), 0L);
        }
        cpu -= excluded - excludedAtStart;
        long ops = result.getMetadata().getMeasuredOps();
        double perOp = ops == 0 ? Double.NaN : (double) cpu / ops;
        return List.of(new ScalarResult("cpu.time.norm", perOp, "ns/op", AggregationPolicy.AVG));
    }

    private static Map<Long, Long> workerCpuTimes() {
        Map<Long, Long> times = new HashMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains("jmh-worker")) {
                long t = THREADS.getThreadCpuTime(info.getThreadId());
                if (t >= 0) {
                    times.put(info.getThreadId(), t);
                }
            }
        }
        return times;
    }
}
