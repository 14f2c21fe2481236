package io.weir.bench;

import io.weir.data.BinaryRow;
import io.weir.io.LocalFileIO;
import io.weir.log.LogFileReader;
import io.weir.log.LogFileWriter;
import io.weir.log.LogWriterOptions;
import io.weir.options.LogCodec;

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
 * Log block decode: {@link LogFileReader} over a file of 200,000 rows in 1 MB blocks (read from
 * {@link Scratch}, i.e. tmpfs): read each block, verify its CRC-32C, decompress ({@code codec}),
 * walk the records (length and kind checks), and read one field per row. Score: ns per row.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LogReadBenchmark implements Verifiable {
    static final int ROWS = 200_000;

    @Param({"schema1", "schema2"})
    public BenchSchema schema;

    @Param({"NONE", "LZ4", "ZSTD"})
    public LogCodec codec;

    private Path dir;
    private LocalFileIO io;
    private String path;
    private long expectedKeySum;

    @Setup
    public void setup() throws IOException {
        dir = Scratch.newDirectory("weir-bench-log");
        io = new LocalFileIO();
        path = dir.resolve("log.wlog").toString();
        RowArena rows = RowArena.randomKeys(schema, ROWS, schema.keyRange(), 6);
        BinaryRow view = new BinaryRow(schema.arity());
        LogFileWriter writer =
                new LogFileWriter(
                        io.newOutputFile(path), LogWriterOptions.of(0, schema.arity(), codec));
        for (int i = 0; i < ROWS; i++) {
            writer.write(rows.row(i, view));
            expectedKeySum += rows.key(i);
        }
        writer.close();
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long read() throws IOException {
        long sum = 0;
        try (LogFileReader reader = LogFileReader.open(io.newInputFile(path), schema.arity())) {
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
        Verifiable.check(
                result == expectedKeySum,
                "the keys read sum to %s, the keys written to %s",
                result,
                expectedKeySum);
    }
}
