package io.weir.bench;

import io.weir.DataFile;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.write.WriteInternals;

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
 * The full per-row write path, {@link TableWrite#write}: row kind, arity and null-key checks, key
 * hash and bucket (4 buckets), partition resolution (unpartitioned), copy into the buffer. Rows
 * come from a {@link RowSource} (a fresh random key per row, in [0, rows / 5) as in BENCHMARK.md).
 *
 * <ul>
 *   <li>{@code writeNoFlush}: 100,000 rows into a buffer that holds them all, then the buffer is
 *       dropped without writing: the append path alone.
 *   <li>{@code writeWithFlushes}: 100,000 rows per invocation into a writer with a {@code
 *       bufferSize} buffer; whenever it is full the writer flushes (sort, fold duplicate keys,
 *       encode, LZ4, CRC, write to {@link Scratch}: tmpfs, so no device I/O but the write
 *       syscalls). The flushes are amortised over the rows; use iterations of several seconds so
 *       that each holds several flushes. Files are deleted after each iteration.
 * </ul>
 *
 * Score: ns per row. Expected allocation of {@code writeNoFlush}: zero per row.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class TableWriteBenchmark implements Verifiable {
    static final int ROWS = 100_000;

    @Param({"schema1", "schema2"})
    public BenchSchema schema;

    @Param({"64 mb"})
    public String bufferSize;

    @Param({"LZ4"})
    public String codec;

    private Path dir;
    private Table table;
    private RowSource source;
    private TableWrite noFlush;
    private TableWrite withFlushes;

    @Setup
    public void setup() {
        dir = Scratch.newDirectory("weir-bench-write");
        table =
                Tables.create(
                        dir.resolve("table").toString(),
                        schema.schema(),
                        Map.of(
                                "bucket",
                                "4",
                                "write-only",
                                "true",
                                "log.codec",
                                codec,
                                "write-buffer-size",
                                bufferSize));
        source = new RowSource(schema, 4096, schema.keyRange(), 3);
        noFlush = table.newWrite().writeBufferSize(128L << 20).create();
        withFlushes = table.newWrite().create();
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long writeNoFlush() {
        for (int i = 0; i < ROWS; i++) {
            noFlush.write(source.next());
        }
        WriteInternals.discardBuffered(noFlush);
        if (noFlush.stats().flushes() != 0) {
            throw new IllegalStateException("writeNoFlush flushed");
        }
        return noFlush.stats().records();
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long writeWithFlushes() {
        for (int i = 0; i < ROWS; i++) {
            withFlushes.write(source.next());
        }
        return withFlushes.stats().records();
    }

    /** Deletes the files written so far (outside the measurement). */
    @TearDown(Level.Iteration)
    public void deleteFiles() {
        long cpu = CpuTimeProfiler.threadCpuTime();
        List<DataFile> files = withFlushes.prepareCommit();
        for (DataFile f : files) {
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
        noFlush.close();
        withFlushes.close();
        Scratch.delete(dir);
    }

    /** Flushes so far of the flushing writer (for the smoke test). */
    long flushes() {
        return withFlushes.stats().flushes();
    }

    @Override
    public void verify(String method, long result) {
        Verifiable.check(
                result > 0 && result % ROWS == 0, "%s wrote %s records in total", method, result);
    }
}
