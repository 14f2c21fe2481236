package io.weir.bench;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRow;
import io.weir.util.LittleEndian;
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
 * What time partitions cost on the append path: {@link TableWrite#write} of the same rows ({@link
 * BenchSchema#events}: schema1 plus {@code dt}, {@code hr}; key {@code (item_id, ts)}) into a table
 * that is {@code none} (unpartitioned), partitioned by {@code day} ({@code dt}) or by {@code hour}
 * ({@code dt}, {@code hr}) of {@code ts} in Europe/Berlin, 4 buckets. Each row gets a random key
 * and an event time that advances 10 ms per row, up to a minute late (random): a day boundary every
 * 8.6 M rows, an hour boundary every 360,000, with late rows of the previous hour after it.
 *
 * <p>Per row the partitioned writes add: the time read and one comparison with the cached window (a
 * scan of the recent windows for a late row); the flush adds the derived columns written into each
 * row before it is encoded. {@code write}: 100,000 rows per invocation into a buffer that holds
 * them, dropped without a flush (as {@code TableWriteBenchmark.writeNoFlush}); {@code
 * writeWithFlushes}: with the flushes. Expected: within 10 % of {@code none}, no allocation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class PartitionedWriteBenchmark implements Verifiable {
    static final int ROWS = 100_000;
    private static final long STEP_MILLIS = 10;
    private static final long MAX_LATENESS_MILLIS = 60_000;

    @Param({"none", "day", "hour"})
    public String partitioning;

    private Path dir;
    private Table table;
    private TableWrite write;
    private TableWrite withFlushes;
    private RowSource source;
    private int timePosition;
    private long clock = BenchSchema.BASE_MILLIS;
    private long lateness = 12345;

    @Setup
    public void setup() {
        dir = Scratch.newDirectory("weir-bench-partitioned");
        Schema events = BenchSchema.events.schema();
        List<String> keys =
                switch (partitioning) {
                    case "none" -> List.of();
                    case "day" -> List.of("dt");
                    case "hour" -> List.of("dt", "hr");
                    default -> throw new IllegalArgumentException(partitioning);
                };
        Map<String, String> options =
                keys.isEmpty()
                        ? Map.of("bucket", "4", "write-only", "true")
                        : Map.of(
                                "bucket", "4",
                                "write-only", "true",
                                "partition.time.column", "ts",
                                "partition.time.granularity", partitioning,
                                "partition.time.zone", "Europe/Berlin");
        table =
                Tables.create(
                        dir.resolve("table").toString(),
                        new Schema(events.rowType(), events.primaryKey(), keys),
                        options);
        write = table.newWrite().writeBufferSize(128L << 20).create();
        withFlushes = table.newWrite().writeBufferSize(64L << 20).create();
        source = new RowSource(BenchSchema.events, 4096, BenchSchema.events.keyRange(), 3);
        timePosition = events.rowType().indexOf("ts");
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long write() {
        for (int i = 0; i < ROWS; i++) {
            write.write(next());
        }
        WriteInternals.discardBuffered(write);
        if (write.stats().flushes() != 0) {
            throw new IllegalStateException("the benchmark's writer flushed");
        }
        return write.stats().records();
    }

    /**
     * The same rows into a 64 MB buffer whose flushes (sort, fold, fill the derived columns,
     * encode, LZ4, CRC, write to tmpfs) are amortised over the rows; files deleted per iteration.
     */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long writeWithFlushes() {
        for (int i = 0; i < ROWS; i++) {
            withFlushes.write(next());
        }
        return withFlushes.stats().records();
    }

    private BinaryRow next() {
        BinaryRow row = source.next();
        clock += STEP_MILLIS;
        long x = lateness; // xorshift: a random lateness in [0, 1 min)
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        lateness = x;
        long ts = clock - Math.floorMod(x, MAX_LATENESS_MILLIS);
        LittleEndian.putLong(row.bytes(), row.fieldOffset(timePosition), ts);
        return row;
    }

    /** Deletes the files written so far (outside the measurement). */
    @TearDown(Level.Iteration)
    public void deleteFiles() {
        long cpu = CpuTimeProfiler.threadCpuTime();
        for (DataFile f : withFlushes.prepareCommit()) {
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
        write.close();
        withFlushes.close();
        Scratch.delete(dir);
    }

    @Override
    public void verify(String method, long result) {
        Verifiable.check(
                result > 0 && result % ROWS == 0, "%s wrote %s records in total", method, result);
    }
}
