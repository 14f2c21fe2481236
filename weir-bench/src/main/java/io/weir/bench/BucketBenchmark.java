package io.weir.bench;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;

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
 * Bucket assignment: Weir's key hash (murmur3 over the canonical key bytes) modulo 4 buckets, over
 * 100,000 schema1 rows. {@code bigint}: the table's {@code item_id} key; {@code string}: {@code
 * item_name} (64 to 95 bytes) as the key. {@code nullCheckAndBucket} is what the writer does per
 * row before it was merged into one call: the key null check, then the bucket; {@code
 * bucketOfNonNullKey} is the writer's call now. Score: ns per row.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class BucketBenchmark implements Verifiable {
    static final int ROWS = 100_000;
    static final int BUCKETS = 4;

    @Param({"bigint", "string"})
    public String keyType;

    private RowArena rows;
    private BinaryRow view;
    private KeyFields key;

    @Setup
    public void setup() {
        BenchSchema schema = BenchSchema.schema1;
        rows = RowArena.randomKeys(schema, ROWS, schema.keyRange(), 2);
        view = new BinaryRow(schema.arity());
        int[] positions =
                switch (keyType) {
                    case "bigint" -> new int[] {0};
                    case "string" -> new int[] {1};
                    default -> throw new IllegalArgumentException(keyType);
                };
        key = KeyFields.of(schema.schema().rowType(), positions);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long bucket() {
        long sum = 0;
        for (int i = 0; i < ROWS; i++) {
            sum += key.bucket(rows.row(i, view), BUCKETS);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long nullCheckAndBucket() {
        long sum = 0;
        for (int i = 0; i < ROWS; i++) {
            BinaryRow row = rows.row(i, view);
            if (key.firstNull(row) >= 0) {
                throw new IllegalStateException("null key");
            }
            sum += key.bucket(row, BUCKETS);
        }
        return sum;
    }

    /** The writer's call since the null check was merged into the hash: one mask, one hash. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long bucketOfNonNullKey() {
        long sum = 0;
        for (int i = 0; i < ROWS; i++) {
            int bucket = key.bucketOfNonNullKey(rows.row(i, view), BUCKETS);
            if (bucket < 0) {
                throw new IllegalStateException("null key");
            }
            sum += bucket;
        }
        return sum;
    }

    @Override
    public void verify(String method, long result) {
        // Buckets 0..3 spread evenly: the sum is about 1.5 per row.
        Verifiable.check(
                result > ROWS && result < 2L * ROWS, "bucket sum %s for %s rows", result, ROWS);
    }
}
