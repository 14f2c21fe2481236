package io.weir.bench;

import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.types.DataTypes;

import java.util.SplittableRandom;

/**
 * The row shapes of BENCHMARK.md, with the bytes a Flink datagen source would produce.
 *
 * <ul>
 *   <li>{@code schema1}: {@code item_id BIGINT} (key), {@code item_name STRING} of 64 to 95
 *       characters ({@code MOD(item_id, 32) + 64}), 8 {@code BIGINT} metrics in [0, 1e9), {@code ts
 *       TIMESTAMP(3)}: about 170 bytes per row.
 *   <li>{@code schema2}: {@code id BIGINT} (key) + 20 {@code STRING} columns of 16 characters: 496
 *       bytes per row.
 * </ul>
 *
 * Strings are random alphanumerics, as datagen makes them. ({@code events} is schema1 with the
 * columns of a time partitioning.)
 */
public enum BenchSchema {
    schema1 {
        @Override
        Schema build() {
            Schema.Builder b =
                    Schema.builder()
                            .column("item_id", DataTypes.BIGINT())
                            .column("item_name", DataTypes.STRING());
            for (int i = 1; i <= 8; i++) {
                b.column("metric" + i, DataTypes.BIGINT());
            }
            return b.column("ts", DataTypes.TIMESTAMP(3)).primaryKey("item_id").build();
        }

        @Override
        void write(BinaryRowWriter w, long key, SplittableRandom random, byte[] scratch) {
            w.writeLong(0, key);
            int length = Math.floorMod(key, 32) + 64;
            fillAlphanumeric(scratch, length, random);
            w.writeBinary(1, scratch, 0, length);
            for (int i = 2; i < 10; i++) {
                w.writeLong(i, random.nextLong(1_000_000_000L));
            }
            w.writeLong(10, BASE_MILLIS + random.nextInt(10_000_000));
        }
    },
    schema2 {
        @Override
        Schema build() {
            Schema.Builder b = Schema.builder().column("id", DataTypes.BIGINT());
            for (int i = 1; i <= 20; i++) {
                b.column("s" + i, DataTypes.STRING());
            }
            return b.primaryKey("id").build();
        }

        @Override
        void write(BinaryRowWriter w, long key, SplittableRandom random, byte[] scratch) {
            w.writeLong(0, key);
            for (int i = 1; i <= 20; i++) {
                fillAlphanumeric(scratch, 16, random);
                w.writeBinary(i, scratch, 0, 16);
            }
        }
    },
    /**
     * {@code schema1} with {@code ts} as BENCHMARK.md's datagen source writes it, {@code CAST(NOW()
     * AS TIMESTAMP(3))}: here the 10,000 milliseconds of ten seconds of ingestion, few enough
     * distinct values that base files keep a dictionary for the column. Not in the benchmarks'
     * default parameters; pass {@code -p schema=schema1now}.
     */
    schema1now {
        @Override
        Schema build() {
            return schema1.schema();
        }

        @Override
        void write(BinaryRowWriter w, long key, SplittableRandom random, byte[] scratch) {
            schema1.write(w, key, random, scratch);
            w.writeLong(10, BASE_MILLIS + random.nextInt(10_000));
        }
    },
    /**
     * {@code schema1} plus {@code dt DATE} and {@code hr INT}, the columns a time partitioning
     * derives from {@code ts} (null in the rows written), and the key {@code (item_id, ts)}: the
     * same rows for partitioned and unpartitioned tables ({@link PartitionedWriteBenchmark}).
     */
    events {
        @Override
        Schema build() {
            Schema s1 = schema1.schema();
            Schema.Builder b = Schema.builder();
            s1.fields().forEach(f -> b.column(f.name(), f.type().asNullable()));
            return b.column("dt", DataTypes.DATE())
                    .column("hr", DataTypes.INT())
                    .primaryKey("item_id", "ts")
                    .build();
        }

        @Override
        void write(BinaryRowWriter w, long key, SplittableRandom random, byte[] scratch) {
            schema1.write(w, key, random, scratch);
            w.write(11, null, DataTypes.DATE());
            w.write(12, null, DataTypes.INT());
        }
    };

    /** 2025-01-01T00:00:00Z. */
    static final long BASE_MILLIS = 1_735_689_600_000L;

    private static final byte[] ALPHANUMERIC =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".getBytes();

    private Schema schema;

    abstract Schema build();

    /** Writes all fields of a row with primary key {@code key}. */
    abstract void write(BinaryRowWriter w, long key, SplittableRandom random, byte[] scratch);

    public synchronized Schema schema() {
        if (schema == null) {
            schema = build();
        }
        return schema;
    }

    /**
     * Keys are uniform in [0, rows / 5) (BENCHMARK.md): for the row counts of its end-to-end runs,
     * 20 M rows of schema1 and 4 M of schema2.
     */
    public long keyRange() {
        return this == schema2 ? 800_000L : 4_000_000L;
    }

    public int arity() {
        return schema().rowType().size();
    }

    /** The primary key (the first column of both schemas). */
    public KeyFields key() {
        return KeyFields.of(schema().rowType(), schema().primaryKeyPositions());
    }

    /** Position of the key's 8-byte slot in a row: for rewriting keys in place. */
    public int keyPosition() {
        return schema().primaryKeyPositions()[0];
    }

    /** A new row (INSERT) with this key and random other fields, in {@code w}'s buffer. */
    public BinaryRow row(BinaryRowWriter w, long key, SplittableRandom random) {
        w.reset();
        write(w, key, random, new byte[128]);
        return w.complete();
    }

    static void fillAlphanumeric(byte[] target, int length, SplittableRandom random) {
        for (int i = 0; i < length; i++) {
            target[i] = ALPHANUMERIC[random.nextInt(ALPHANUMERIC.length)];
        }
    }
}
