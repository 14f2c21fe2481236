package io.weir;

/**
 * Cumulative counters of a {@link TableWrite}, for metrics.
 *
 * @param records rows accepted
 * @param bytes row bytes accepted
 * @param flushes buffer flushes
 * @param filesWritten log files written
 * @param bytesWritten bytes of log files written
 * @param flushNanos time spent flushing
 * @param bufferBytes bytes of buffer memory in use now
 * @param bufferCapacity the buffer's memory budget
 */
public record WriteStats(
        long records,
        long bytes,
        long flushes,
        long filesWritten,
        long bytesWritten,
        long flushNanos,
        long bufferBytes,
        long bufferCapacity) {}
