package io.weir.bench;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.types.RowType;
import io.weir.types.TypeRoot;

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
 * Building a row in binary form, field by field, as the bucket shuffle does for each row a source
 * hands it (weir-flink's {@code RowDataWriter}, which reads Flink's fields): {@link
 * BinaryRowWriter#reset()}, one typed write per field (its value read from a prepared row), {@link
 * BinaryRowWriter#complete()}. Score: ns per row. Expected allocation: zero per row.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RowBuildBenchmark implements Verifiable {
    static final int ROWS = 10_000;

    @Param({"schema1", "schema2"})
    public BenchSchema schema;

    private RowArena rows;
    private BinaryRow view;
    private BinaryRowWriter writer;
    private boolean[] strings;

    @Setup
    public void setup() {
        rows = RowArena.randomKeys(schema, ROWS, schema.keyRange(), 3);
        view = new BinaryRow(schema.arity());
        writer = new BinaryRowWriter(schema.arity(), 256);
        RowType type = schema.schema().rowType();
        strings = new boolean[type.size()];
        for (int i = 0; i < strings.length; i++) {
            strings[i] = type.type(i).root() == TypeRoot.VARCHAR;
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long build() {
        long bytes = 0;
        boolean[] s = strings;
        for (int r = 0; r < ROWS; r++) {
            BinaryRow from = rows.row(r, view);
            BinaryRowWriter w = writer.reset();
            for (int i = 0; i < s.length; i++) {
                if (s[i]) {
                    w.writeBinary(i, from.bytes(), from.varDataOffset(i), from.varDataLength(i));
                } else {
                    w.writeLong(i, from.getLong(i));
                }
            }
            bytes += w.complete().sizeInBytes();
        }
        return bytes;
    }

    @Override
    public void verify(String method, long result) {
        // Each row is built with the bytes it was prepared with.
        Verifiable.check(
                result == rows.bytes(),
                "built %s bytes of rows, expected %s",
                result,
                rows.bytes());
    }
}
