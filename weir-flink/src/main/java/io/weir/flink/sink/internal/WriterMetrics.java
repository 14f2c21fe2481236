package io.weir.flink.sink.internal;

import io.weir.TableWrite;
import io.weir.WriteStats;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * A writer's metrics, in the group {@code weir} of the sink writer operator: records, bytes,
 * flushes, filesWritten, bytesWritten, flushTimeMs (cumulative), bufferUsedBytes,
 * bufferCapacityBytes, compactionStalls and compactionStalledMs ({@link CompactionBackPressure});
 * and Flink's standard numRecordsSend/numBytesSend.
 *
 * <p>Reporters read gauges from another thread while the {@link TableWrite} (not thread-safe)
 * belongs to the task thread, so the task thread publishes a snapshot of its counters from time to
 * time ({@link #refresh}), and the gauges read that.
 */
public final class WriterMetrics {
    public static final String GROUP = "weir";

    private final TableWrite write;
    private final MetricGroup group;
    private final Counter recordsSend;
    private final Counter bytesSend;
    private volatile WriteStats stats;

    public WriterMetrics(SinkWriterMetricGroup metrics, TableWrite write) {
        this.write = write;
        this.stats = write.stats();
        this.recordsSend = metrics.getNumRecordsSendCounter();
        this.bytesSend = metrics.getNumBytesSendCounter();
        this.group = metrics.addGroup(GROUP);
        gauge(group, "records", WriteStats::records);
        gauge(group, "bytes", WriteStats::bytes);
        gauge(group, "flushes", WriteStats::flushes);
        gauge(group, "filesWritten", WriteStats::filesWritten);
        gauge(group, "bytesWritten", WriteStats::bytesWritten);
        gauge(group, "flushTimeMs", s -> TimeUnit.NANOSECONDS.toMillis(s.flushNanos()));
        gauge(group, "bufferUsedBytes", WriteStats::bufferBytes);
        gauge(group, "bufferCapacityBytes", WriteStats::bufferCapacity);
    }

    /** The waits of the writer's {@link CompactionBackPressure}: compactionStalls, ...Ms. */
    public void register(CompactionBackPressure backPressure) {
        group.gauge("compactionStalls", (Gauge<Long>) backPressure::stalls);
        group.gauge("compactionStalledMs", (Gauge<Long>) backPressure::stalledMillis);
    }

    private void gauge(MetricGroup group, String name, ToLongFunction<WriteStats> value) {
        group.gauge(name, (Gauge<Long>) () -> value.applyAsLong(stats));
    }

    /** Publishes the writer's counters; call from the task thread. */
    public void refresh() {
        WriteStats previous = stats;
        WriteStats now = write.stats();
        recordsSend.inc(now.records() - previous.records());
        bytesSend.inc(now.bytes() - previous.bytes());
        stats = now;
    }
}
