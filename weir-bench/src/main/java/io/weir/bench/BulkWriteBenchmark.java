package io.weir.bench;

import io.weir.BulkWrite;
import io.weir.DataFile;
import io.weir.Table;
import io.weir.Tables;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One bulk writer's whole job, {@link BulkWrite}: 300,000 rows in (the write path: checks, bucket,
 * copy into the sort buffer; spills of full buffers: sort, fold, LZ4, write), then {@code
 * prepareCommit}: merge the runs and the buffer, fold keys, and write sorted Parquet base files
 * (ZSTD, 4 buckets) to {@link Scratch} (tmpfs). Keys uniform in {@code [0, 10 * rows)}: a load with
 * few duplicates. {@code bufferSize} 256 mb holds every row (no spill); 32 mb spills several runs.
 * Files are deleted after each invocation, outside the measurement.
 *
 * <p>Score: ns per input row; {@code gc.alloc.rate.norm}: bytes allocated per input row.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BulkWriteBenchmark implements Verifiable {
    static final int ROWS = 300_000;

    @Param({"schema1", "schema2"})
    public BenchSchema schema;

    @Param({"256 mb", "32 mb"})
    public String bufferSize;

    private Path dir;
    private Table table;
    private RowSource source;
    private List<DataFile> written = List.of();
    private long spills;

    @Setup
    public void setup() {
        dir = Scratch.newDirectory("weir-bench-bulk");
        table =
                Tables.create(
                        dir.resolve("table").toString(),
                        schema.schema(),
                        Map.of("bucket", "4", "write-buffer-size", bufferSize));
        source = new RowSource(schema, 4096, 10L * ROWS, 5);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long bulkWrite() {
        try (BulkWrite write =
                table.newBulkWrite().spillDirectory(dir.resolve("spill").toString()).create()) {
            for (int i = 0; i < ROWS; i++) {
                write.write(source.next());
            }
            written = write.prepareCommit();
            spills = write.stats().flushes();
        }
        return written.stream().mapToLong(DataFile::recordCount).sum();
    }

    /** Deletes the base files (outside the measurement). */
    @TearDown(Level.Invocation)
    public void deleteFiles() {
        long cpu = CpuTimeProfiler.threadCpuTime();
        for (DataFile f : written) {
            try {
                table.io().delete(table.location() + "/" + f.path());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        CpuTimeProfiler.excludeSetup(CpuTimeProfiler.threadCpuTime() - cpu);
    }

    @TearDown
    public void tearDown() {
        Scratch.delete(dir);
    }

    @Override
    public void verify(String method, long result) {
        // About 95 % of 300,000 random keys in [0, 3,000,000) are distinct.
        Verifiable.check(
                result > ROWS * 0.9 && result <= ROWS,
                "%s wrote %s distinct keys of %s rows",
                method,
                result,
                ROWS);
        Verifiable.check(
                written.size() == 4, "%s wrote %s files, expected 4", method, written.size());
        Verifiable.check(
                (spills == 0) == bufferSize.equals("256 mb"),
                "%s spilled %s runs with a %s buffer",
                method,
                spills,
                bufferSize);
    }
}
