package io.weir.bench;

import io.weir.base.BaseFileReader;
import io.weir.base.BaseFileWriteOptions;
import io.weir.base.BaseFileWriter;
import io.weir.data.BinaryRow;
import io.weir.io.LocalFileIO;
import io.weir.options.BaseFileCompression;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
import java.util.concurrent.TimeUnit;

/**
 * Parquet base files: {@code write} encodes 100,000 rows in ascending key order into a new base
 * file ({@code compression}, one row group, footer statistics) on {@link Scratch} (tmpfs) and
 * deletes it; {@code read} decodes every column of such a file back into rows. Score: ns per row.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BaseFileBenchmark implements Verifiable {
    static final int ROWS = 100_000;

    @Param({"schema1", "schema2"})
    public BenchSchema schema;

    @Param({"ZSTD", "SNAPPY"})
    public BaseFileCompression compression;

    private Path dir;
    private LocalFileIO io;
    private RowArena rows;
    private BinaryRow view;
    private String readPath;
    private long expectedKeySum;
    private int files;

    @Setup
    public void setup() {
        dir = Scratch.newDirectory("weir-bench-base");
        io = new LocalFileIO();
        rows = RowArena.of(schema, ROWS, 7, i -> 5 * i);
        view = new BinaryRow(schema.arity());
        for (int i = 0; i < ROWS; i++) {
            expectedKeySum += rows.key(i);
        }
        readPath = dir.resolve("read.parquet").toString();
        writeFile(readPath);
    }

    private long writeFile(String path) {
        BaseFileWriter writer =
                new BaseFileWriter(
                        io.newOutputFile(path),
                        schema.schema(),
                        BaseFileWriteOptions.of(compression));
        for (int i = 0; i < ROWS; i++) {
            writer.write(rows.row(i, view));
        }
        return writer.close().recordCount();
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long write() throws IOException {
        String path = dir.resolve("write-" + files++ + ".parquet").toString();
        long written = writeFile(path);
        io.delete(path);
        return written;
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long read() {
        long sum = 0;
        try (BaseFileReader reader =
                new BaseFileReader(io.newInputFile(readPath), schema.schema().rowType())) {
            while (reader.next()) {
                sum += reader.row().getLong(0);
            }
        }
        return sum;
    }

    @TearDown
    public void tearDown() {
        Scratch.delete(dir);
    }

    @Override
    public void verify(String method, long result) {
        long expected = method.equals("write") ? ROWS : expectedKeySum;
        Verifiable.check(
                result == expected, "%s returned %s, expected %s", method, result, expected);
    }
}
