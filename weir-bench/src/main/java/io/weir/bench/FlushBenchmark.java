package io.weir.bench;

import io.weir.DataFile;
import io.weir.TableMetadata;
import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.io.LocalFileIO;
import io.weir.log.LogWriterOptions;
import io.weir.memory.MemoryPool;
import io.weir.merge.MergeFunctions;
import io.weir.options.LogCodec;
import io.weir.options.TableOptions;
import io.weir.write.SortBuffer;
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
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A writer's flush of a full buffer of 200,000 rows (4 buckets, random keys in [0, rows / 5)): sort
 * the index, fold duplicate keys, encode one log file per bucket, compress blocks ({@code codec}),
 * CRC-32C, write to {@link Scratch} (tmpfs: the bytes are copied into the page cache, no device
 * I/O; the close's fsync is a no-op there). Keys are folded by the merge function of {@code
 * engine}. The buffer is refilled before each invocation, outside the measurement. Score: ns per
 * buffered row.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FlushBenchmark implements Verifiable {
    static final int ROWS = 200_000;
    static final int BUCKETS = 4;

    @Param({"schema1", "schema2"})
    public BenchSchema schema;

    @Param({"NONE", "LZ4", "ZSTD"})
    public LogCodec codec;

    /** The merge engine that folds duplicate keys (docs/merge-engines.md). */
    @Param({"deduplicate"})
    public String engine;

    private Path dir;
    private LocalFileIO io;
    private RowArena rows;
    private BinaryRow view;
    private KeyFields key;
    private SortBuffer buffer;
    private WriteInternals.Flusher flusher;
    private List<DataFile> written = List.of();

    @Setup
    public void setup() {
        dir = Scratch.newDirectory("weir-bench-flush");
        io = new LocalFileIO();
        rows = RowArena.randomKeys(schema, ROWS, schema.keyRange(), 4);
        view = new BinaryRow(schema.arity());
        key = schema.key();
        long need = rows.bytes() + 48L * ROWS; // rows, index entries, sort scratch
        buffer =
                new SortBuffer(
                        new MemoryPool(need + need / 8 + (4L << 20), 64 << 10),
                        schema.arity(),
                        key);
        flusher =
                new WriteInternals.Flusher(
                        io,
                        dir.toString(),
                        schema.schema(),
                        key,
                        MergeFunctions.create(
                                new TableMetadata(
                                        0,
                                        schema.schema(),
                                        TableOptions.of(Map.of("merge-engine", engine)),
                                        0),
                                true,
                                true),
                        LogWriterOptions.of(0, schema.arity(), codec));
    }

    @Setup(Level.Invocation)
    public void fill() {
        long cpu = CpuTimeProfiler.threadCpuTime();
        buffer.clear();
        for (int i = 0; i < ROWS; i++) {
            BinaryRow row = rows.row(i, view);
            buffer.append(0, key.bucket(row, BUCKETS), row);
        }
        CpuTimeProfiler.excludeSetup(CpuTimeProfiler.threadCpuTime() - cpu);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long flush() {
        written = flusher.flush(buffer);
        long records = 0;
        for (DataFile f : written) {
            records += f.recordCount();
        }
        return records;
    }

    @TearDown(Level.Invocation)
    public void deleteFiles() throws IOException {
        long cpu = CpuTimeProfiler.threadCpuTime();
        for (DataFile f : written) {
            io.delete(dir.resolve(f.path()).toString());
        }
        CpuTimeProfiler.excludeSetup(CpuTimeProfiler.threadCpuTime() - cpu);
    }

    @TearDown
    public void tearDown() {
        buffer.clear();
        flusher.close();
        Scratch.delete(dir);
    }

    @Override
    public void verify(String method, long result) {
        Set<Long> distinct = new HashSet<>();
        for (int i = 0; i < ROWS; i++) {
            distinct.add(rows.key(i));
        }
        // Duplicates are folded: one record per distinct key.
        Verifiable.check(
                result == distinct.size(),
                "flush wrote %s records, expected %s (distinct keys of %s rows)",
                result,
                distinct.size(),
                ROWS);
        Verifiable.check(written.size() == BUCKETS, "flush wrote %s files", written.size());
    }
}
