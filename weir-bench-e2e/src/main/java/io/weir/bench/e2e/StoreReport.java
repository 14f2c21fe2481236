package io.weir.bench.e2e;

import io.weir.bench.e2e.StoreFigures.Entry;
import io.weir.bench.e2e.gen.Workload;

import java.util.List;

/**
 * The part of a {@link StoreSuite} report that depends on the store: S3 ({@link S3Report}) or HDFS
 * ({@link HdfsReport}). The rest (ingestion, machine, every run) is the suite's.
 */
interface StoreReport {
    /** {@code S3} or {@code HDFS}. */
    String name();

    /** The prefix of the store's counters in a run's JSON line. */
    String countsPrefix();

    /** The report's file name, e.g. {@code BENCHMARKS-s3.md}. */
    String fileName();

    /** What else ran beside the child JVM (outside its measured CPU). */
    String outsideTheJob();

    /** The section "Requests ..." or "NameNode operations ...": what the store counted. */
    void counters(
            StringBuilder md, StoreFigures figures, List<Workload> workloads, List<Entry> entries);

    /** The section "Targets". */
    void targets(StringBuilder md, StoreFigures figures, List<Workload> workloads);

    /** The report of a store by name. */
    static StoreReport of(String store) {
        return store.equals("HDFS") ? new HdfsReport() : new S3Report();
    }
}
