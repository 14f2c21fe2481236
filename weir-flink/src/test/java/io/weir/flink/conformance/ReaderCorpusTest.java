package io.weir.flink.conformance;

import io.weir.Schema;
import io.weir.data.Timestamp;
import io.weir.types.DataTypes;

import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The tables of the corpus ({@link ReaderCorpus}) whose values come from one random sequence: every
 * type keyed and append-only, the sequence field, time partitions, expiry, the merge engines and
 * schema evolution. One test writes them in order, as each table's values depend on the draws of
 * the tables before it; tables added later take a random of their own, in a test of their own.
 */
class ReaderCorpusTest {
    @RegisterExtension static final MiniClusterExtension CLUSTER = ReaderCorpus.cluster();

    /** Every Weir type, with the precisions where the encoding changes. */
    private static Schema.Builder allTypes(Schema.Builder b) {
        return b.column("c_boolean", DataTypes.BOOLEAN())
                .column("c_tinyint", DataTypes.TINYINT())
                .column("c_smallint", DataTypes.SMALLINT())
                .column("c_int", DataTypes.INT())
                .column("c_bigint", DataTypes.BIGINT())
                .column("c_float", DataTypes.FLOAT())
                .column("c_double", DataTypes.DOUBLE())
                .column("c_decimal_5_2", DataTypes.DECIMAL(5, 2))
                .column("c_decimal_18_4", DataTypes.DECIMAL(18, 4))
                .column("c_decimal_19_0", DataTypes.DECIMAL(19, 0))
                .column("c_decimal_38_10", DataTypes.DECIMAL(38, 10))
                .column("c_char", DataTypes.CHAR(10))
                .column("c_varchar", DataTypes.VARCHAR(2000))
                .column("c_string", DataTypes.STRING())
                .column("c_binary", DataTypes.BINARY(10))
                .column("c_bytes", DataTypes.BYTES())
                .column("c_date", DataTypes.DATE())
                .column("c_time", DataTypes.TIME(3))
                .column("c_ts0", DataTypes.TIMESTAMP(0))
                .column("c_ts3", DataTypes.TIMESTAMP(3))
                .column("c_ts6", DataTypes.TIMESTAMP(6))
                .column("c_ts9", DataTypes.TIMESTAMP(9))
                .column("c_ltz3", DataTypes.TIMESTAMP_LTZ(3))
                .column("c_ltz6", DataTypes.TIMESTAMP_LTZ(6))
                .column("c_ltz9", DataTypes.TIMESTAMP_LTZ(9));
    }

    @Test
    void writesTheTablesOfOneRandomSequence() throws Exception {
        ReaderCorpus.write(
                6 + MergeEngineCorpus.TABLES + SchemaEvolutionCorpus.TABLES,
                ReaderCorpusTest::write);
    }

    private static void write(Path root) throws Exception {
        Random random = new Random(26);

        // Keyed, every type, identity partition, LZ4 logs; logs only, then logs plus bases.
        Schema keyed =
                allTypes(
                                Schema.builder()
                                        .column("id", DataTypes.INT().notNull())
                                        .column("region", DataTypes.STRING().notNull()))
                        .primaryKey("id", "region")
                        .partitionKeys("region")
                        .build();
        CorpusTable t = new CorpusTable(root, "keyed_all_types", keyed, Map.of("bucket", "2"));
        t.projection = List.of("c_string", "id", "c_boolean");
        t.filters = 2;
        t.randomCommit(random, 80, 60, 0);
        t.randomCommit(random, 80, 60, 4);
        t.compact();
        t.randomCommit(random, 60, 60, 3);
        t.randomCommit(random, 40, 60, 2);
        t.finish();

        // Append-only, every type, a nullable partition key (null partition), ZSTD logs, an
        // overwrite (rows removed) and a compaction.
        Schema appendOnly =
                allTypes(Schema.builder().column("part", DataTypes.INT()))
                        .partitionKeys("part")
                        .build();
        t = new CorpusTable(root, "append_all_types", appendOnly, Map.of("log.codec", "ZSTD"));
        t.overrides.put("part", r -> r.nextInt(4) == 0 ? null : r.nextInt(2));
        t.filters = 2;
        t.randomCommit(random, 60, 0, 0);
        t.randomCommit(random, 60, 0, 0);
        t.compact();
        t.randomCommit(random, 30, 0, 0);
        t.overwriteAll(random, 20);
        t.randomCommit(random, 20, 0, 0);
        t.finish();

        // Keyed with a DOUBLE sequence field (nulls, NaN, -0.0 among its values), 3 buckets,
        // uncompressed logs, no partitions.
        t =
                new CorpusTable(
                        root,
                        "keyed_sequence_field",
                        ReaderCorpus.keyedWithSequenceField(),
                        Map.of("bucket", "3", "sequence.field", "ver", "log.codec", "NONE"));
        t.filters = 2;
        for (int i = 0; i < 4; i++) {
            t.randomCommit(random, 120, 40, 4);
        }
        t.compact();
        t.randomCommit(random, 120, 40, 4);
        t.finish();

        // Keyed, time-partitioned by day in a zone; deletes.
        Schema timed =
                Schema.builder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("ts", DataTypes.TIMESTAMP_LTZ(3).notNull())
                        .column("v", DataTypes.DECIMAL(10, 2))
                        .column("dt", DataTypes.DATE())
                        .primaryKey("id", "ts")
                        .partitionKeys("dt")
                        .build();
        t =
                new CorpusTable(
                        root,
                        "keyed_time_partitions",
                        timed,
                        Map.of(
                                "bucket", "2",
                                "partition.time.column", "ts",
                                "partition.time.zone", "Asia/Shanghai"));
        t.filters = 2;
        t.randomCommit(random, 100, 50, 4);
        t.randomCommit(random, 100, 50, 4);
        t.compact();
        t.randomCommit(random, 50, 50, 3);
        t.finish();

        // Keyed, expired: the first snapshots are gone, the rest must read as before.
        Schema small =
                Schema.builder()
                        .column("id", DataTypes.INT().notNull())
                        .column("name", DataTypes.STRING())
                        .column("amount", DataTypes.DECIMAL(20, 3))
                        .primaryKey("id")
                        .build();
        t =
                new CorpusTable(
                        root,
                        "keyed_expired",
                        small,
                        Map.of("bucket", "1", "metadata.checkpoint-interval", "2"));
        for (int i = 0; i < 3; i++) {
            t.randomCommit(random, 40, 30, 3);
        }
        t.compact();
        t.randomCommit(random, 40, 30, 3);
        t.randomCommit(random, 40, 30, 3);
        t.table.expireSnapshots().retainLast(3).expireOlderThan(Long.MAX_VALUE).commit();
        t.table.refresh();
        t.finish();

        // Keyed, every type stored as a Parquet integer, with values mostly distinct and far
        // from random: compaction writes them DELTA_BINARY_PACKED (docs/format.md §5.2).
        Schema integers =
                Schema.builder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("c_smallint", DataTypes.SMALLINT())
                        .column("c_int", DataTypes.INT())
                        .column("c_bigint", DataTypes.BIGINT())
                        .column("c_decimal_9_2", DataTypes.DECIMAL(9, 2))
                        .column("c_decimal_18_4", DataTypes.DECIMAL(18, 4))
                        .column("c_date", DataTypes.DATE())
                        .column("c_time", DataTypes.TIME(3))
                        .column("c_ts3", DataTypes.TIMESTAMP(3))
                        .column("c_ts6", DataTypes.TIMESTAMP(6))
                        .column("c_ltz9", DataTypes.TIMESTAMP_LTZ(9))
                        .primaryKey("id")
                        .build();
        t = new CorpusTable(root, "keyed_delta_integers", integers, Map.of("bucket", "1"));
        long at = 1_714_500_000_000L;
        t.overrides.put("id", r -> (long) r.nextInt(1_000_000) - 500_000);
        t.overrides.put("c_smallint", r -> (short) (r.nextInt(60_000) - 30_000));
        t.overrides.put("c_int", r -> r.nextInt(10_000_000) - 5_000_000);
        t.overrides.put("c_bigint", r -> r.nextLong(1L << 40) - (1L << 39));
        t.overrides.put("c_decimal_9_2", r -> BigDecimal.valueOf(r.nextInt(1_000_000_000), 2));
        t.overrides.put(
                "c_decimal_18_4", r -> BigDecimal.valueOf(r.nextLong(1_000_000_000_000L), 4));
        t.overrides.put("c_date", r -> 19_000 + r.nextInt(5_000));
        t.overrides.put("c_time", r -> r.nextInt(86_400_000));
        t.overrides.put("c_ts3", r -> Timestamp.ofMillis(at + r.nextInt(1_000_000_000)));
        t.overrides.put(
                "c_ts6", r -> new Timestamp(at + r.nextInt(1_000_000_000), 1000 * r.nextInt(1000)));
        t.overrides.put(
                "c_ltz9", r -> new Timestamp(at + r.nextInt(1_000_000_000), r.nextInt(1_000_000)));
        t.randomCommit(random, 600, 5_000, 5);
        t.compact();
        t.randomCommit(random, 300, 5_000, 5);
        t.randomCommit(random, 300, 5_000, 5);
        t.compact();
        t.randomCommit(random, 100, 5_000, 5);
        t.finish();

        MergeEngineCorpus.write(root, random);
        SchemaEvolutionCorpus.write(root, random);
    }
}
