package io.weir.bench.e2e;

import io.weir.bench.e2e.job.RemoteWarehouse;

import java.io.IOException;

/**
 * The storage of a {@code --warehouse} session other than local disk: an S3 server ({@link
 * S3Setup}) or an HDFS ({@link HdfsSetup}). It gives each run its warehouse, with the storage
 * options that reach it and the URL of the counters the child reads around its ingestion, and
 * removes a run's files after it.
 */
interface RemoteStore extends AutoCloseable {
    /** The store's name in labels and the report: {@code S3} or {@code HDFS}. */
    String name();

    /** The warehouse of one run. */
    RemoteWarehouse forRun(String runName);

    /** Deletes a run's files, unless they are to be kept. */
    void finished(String runName);

    /** What the report says about the store. */
    String describe();

    @Override
    void close() throws IOException;
}
