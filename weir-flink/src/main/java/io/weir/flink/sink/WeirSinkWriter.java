package io.weir.flink.sink;

import io.weir.DataFile;
import io.weir.PendingFilesLease;
import io.weir.TableWrite;
import io.weir.flink.FlinkRows;
import io.weir.flink.sink.internal.CompactionBackPressure;
import io.weir.flink.sink.internal.WriterMetrics;

import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.table.data.RowData;

import java.util.Collection;
import java.util.List;

/**
 * A thin adapter from Flink's writer protocol to a {@link TableWrite}: each row is viewed as a Weir
 * row (zero-copy for a {@code BinaryRowData}, which is what the bucket shuffle delivers) and
 * written; at each checkpoint {@link #prepareCommit} flushes and hands the files on. Files not yet
 * handed on when the writer closes (a failure) are deleted by {@link TableWrite#close()}.
 *
 * <p>A {@link PendingFilesLease} protects the writer's files from orphan removal until it sees them
 * committed: taken before the first file, renewed when due (docs/table-services.md). When the job's
 * compaction falls behind, {@link CompactionBackPressure} holds the checkpoint.
 */
final class WeirSinkWriter implements CommittingSinkWriter<RowData, WeirWriteResult> {
    /** Rows between two publications of the metrics' counters. */
    private static final int METRICS_INTERVAL = 4096;

    private final TableWrite write;
    private final PendingFilesLease lease;
    private final CompactionBackPressure backPressure;
    private final FlinkRows.ToWeir toWeir;
    private final WriterMetrics metrics;
    private final WeirSinkHook hook;
    private final int subtask;
    private int untilMetrics = METRICS_INTERVAL;

    WeirSinkWriter(
            TableWrite write,
            PendingFilesLease lease,
            CompactionBackPressure backPressure,
            FlinkRows.ToWeir toWeir,
            WriterMetrics metrics,
            WeirSinkHook hook,
            int subtask) {
        this.write = write;
        this.lease = lease;
        this.backPressure = backPressure;
        this.toWeir = toWeir;
        this.metrics = metrics;
        this.hook = hook;
        this.subtask = subtask;
    }

    @Override
    public void write(RowData row, Context context) {
        write.write(toWeir.convert(row));
        if (hook != null) {
            hook.afterWrite(subtask, row);
        }
        if (--untilMetrics == 0) {
            untilMetrics = METRICS_INTERVAL;
            metrics.refresh();
            lease.renewIfDue();
        }
    }

    /** Nothing: {@link #prepareCommit} flushes, and it always follows. */
    @Override
    public void flush(boolean endOfInput) {}

    @Override
    public Collection<WeirWriteResult> prepareCommit() throws InterruptedException {
        List<DataFile> files = write.prepareCommit();
        lease.handedOn(files);
        backPressure.await(files);
        metrics.refresh();
        if (hook != null) {
            hook.afterPrepareCommit(subtask, files);
        }
        return files.isEmpty() ? List.of() : List.of(new WeirWriteResult(files));
    }

    @Override
    public void close() {
        try {
            write.close();
        } finally {
            lease.close();
        }
    }
}
