package io.weir.bench;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.memory.MemoryPool;
import io.weir.write.SortBuffer;
import io.weir.write.SortedCursor;

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
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The sort of a write buffer alone: {@link SortBuffer#sortedCursor()} over 200,000 schema1 rows in
 * 4 buckets, then one pass of the cursor. The buffer is refilled before each invocation, outside
 * the measurement.
 *
 * <ul>
 *   <li>{@code bigint}: the {@code item_id} key; the 8-byte prefix decides (radix sort only).
 *   <li>{@code string}: {@code item_name} (random, 64 to 95 characters) as the key; prefixes almost
 *       never tie.
 *   <li>{@code string_common_prefix}: {@code item_name} rewritten to {@code "item-name-"} + the
 *       key's 12 digits + random characters, like many real string ids: every 8-byte prefix ties,
 *       so the order is decided by row comparisons.
 * </ul>
 *
 * Score: ns per row.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SortBenchmark implements Verifiable {
    static final int ROWS = 200_000;
    static final int BUCKETS = 4;

    @Param({"bigint", "string", "string_common_prefix"})
    public String keyType;

    private RowArena rows;
    private BinaryRow view;
    private KeyFields key;
    private KeyFields bucketKey;
    private SortBuffer buffer;

    @Setup
    public void setup() {
        BenchSchema schema = BenchSchema.schema1;
        rows = RowArena.randomKeys(schema, ROWS, schema.keyRange(), 5);
        view = new BinaryRow(schema.arity());
        if (keyType.equals("string_common_prefix")) {
            for (int i = 0; i < ROWS; i++) {
                BinaryRow row = rows.row(i, view);
                byte[] id =
                        String.format("item-name-%012d", rows.key(i))
                                .getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(id, 0, row.bytes(), row.varDataOffset(1), id.length);
            }
        }
        int[] positions = keyType.equals("bigint") ? new int[] {0} : new int[] {1};
        key = KeyFields.of(schema.schema().rowType(), positions);
        bucketKey = schema.key();
        long need = rows.bytes() + 48L * ROWS; // rows, index entries, sort scratch
        buffer =
                new SortBuffer(
                        new MemoryPool(need + need / 8 + (4L << 20), 64 << 10),
                        schema.arity(),
                        key);
    }

    @Setup(Level.Invocation)
    public void fill() {
        long cpu = CpuTimeProfiler.threadCpuTime();
        buffer.clear();
        for (int i = 0; i < ROWS; i++) {
            BinaryRow row = rows.row(i, view);
            buffer.append(0, bucketKey.bucket(row, BUCKETS), row);
        }
        CpuTimeProfiler.excludeSetup(CpuTimeProfiler.threadCpuTime() - cpu);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long sort() {
        SortedCursor cursor = buffer.sortedCursor();
        long n = 0;
        while (cursor.next()) {
            n += cursor.bucket() >= 0 ? 1 : 0;
        }
        return n;
    }

    /** Checks the order the cursor yields: by bucket, then key (for the smoke test). */
    boolean isSorted() {
        SortedCursor cursor = buffer.sortedCursor();
        BinaryRow previous = new BinaryRow(view.arity());
        byte[] previousBytes = null;
        int previousBucket = -1;
        while (cursor.next()) {
            BinaryRow row = cursor.row();
            if (cursor.bucket() < previousBucket) {
                return false;
            }
            if (cursor.bucket() == previousBucket
                    && key.compare(previous.pointTo(previousBytes, 0, previousBytes.length), row)
                            > 0) {
                return false;
            }
            previousBucket = cursor.bucket();
            previousBytes =
                    java.util.Arrays.copyOfRange(
                            row.bytes(), row.offset(), row.offset() + row.sizeInBytes());
        }
        return true;
    }

    @Override
    public void verify(String method, long result) {
        Verifiable.check(result == ROWS, "the cursor yielded %s rows of %s", result, ROWS);
        Verifiable.check(isSorted(), "the cursor's order is not (bucket, key)");
    }
}
