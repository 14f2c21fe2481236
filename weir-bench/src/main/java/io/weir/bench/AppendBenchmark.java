package io.weir.bench;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.memory.MemoryPool;
import io.weir.write.SortBuffer;

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
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The row copy into the write buffer: {@link SortBuffer#append} of 100,000 prepared rows (key
 * prefix, index entry, byte copy), then {@link SortBuffer#clear()} (pages back to the pool). Score:
 * ns per row. Expected allocation: zero per row.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class AppendBenchmark implements Verifiable {
    static final int ROWS = 100_000;

    @Param({"schema1", "schema2"})
    public BenchSchema schema;

    private RowArena rows;
    private BinaryRow view;
    private SortBuffer buffer;

    @Setup
    public void setup() {
        rows = RowArena.randomKeys(schema, ROWS, schema.keyRange(), 1);
        view = new BinaryRow(schema.arity());
        int pageSize = 64 << 10;
        // Every row plus its 32-byte index entry, and a page per 64 KB for page-end waste.
        long need = rows.bytes() + 48L * ROWS; // rows, index entries, sort scratch
        MemoryPool pool = new MemoryPool(need + need / 8 + (4L << 20), pageSize);
        KeyFields key = schema.key();
        buffer = new SortBuffer(pool, schema.arity(), key);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long sortBufferAppend() {
        for (int i = 0; i < ROWS; i++) {
            if (!buffer.append(0, (int) rows.key(i) & 3, rows.row(i, view))) {
                throw new IllegalStateException("The pool is too small for " + ROWS + " rows");
            }
        }
        long appended = buffer.size();
        buffer.clear();
        return appended;
    }

    @Override
    public void verify(String method, long result) {
        Verifiable.check(result == ROWS, "appended %s rows, expected %s", result, ROWS);
    }
}
