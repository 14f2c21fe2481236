package io.weir.flink.conformance;

import io.weir.Schema;
import io.weir.types.DataTypes;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * The tables of the reader conformance corpus with merge engines other than {@code deduplicate}
 * (docs/merge-engines.md): several snapshots with a compaction in between, so that records of a key
 * are folded by the writer, by compaction and on read.
 */
final class MergeEngineCorpus {
    static final int TABLES = 4;

    private MergeEngineCorpus() {}

    static void write(Path root, Random random) throws Exception {
        // first-row; retractions dropped by ignore-delete.
        Schema firstRow =
                Schema.builder()
                        .column("k", DataTypes.INT().notNull())
                        .column("a", DataTypes.STRING())
                        .column("b", DataTypes.DOUBLE())
                        .column("c", DataTypes.DECIMAL(38, 10))
                        .column("d", DataTypes.TIMESTAMP(9))
                        .primaryKey("k")
                        .build();
        CorpusTable t =
                new CorpusTable(
                        root,
                        "engine_first_row",
                        firstRow,
                        Map.of(
                                "bucket",
                                "2",
                                "merge-engine",
                                "first-row",
                                "ignore-delete",
                                "true"));
        fill(t, random);

        // partial-update with two sequence groups (one of two sequence fields), a free column,
        // and retractions, which null a group's fields when they pass its sequence test.
        Schema partial =
                Schema.builder()
                        .column("k", DataTypes.BIGINT().notNull())
                        .column("s1", DataTypes.INT())
                        .column("a", DataTypes.STRING())
                        .column("b", DataTypes.DOUBLE())
                        .column("s2", DataTypes.SMALLINT())
                        .column("s3", DataTypes.TIMESTAMP(3))
                        .column("c", DataTypes.DECIMAL(20, 2))
                        .column("free", DataTypes.VARCHAR(100))
                        .column("free2", DataTypes.BOOLEAN())
                        .primaryKey("k")
                        .build();
        Map<String, String> options = new HashMap<>();
        options.put("bucket", "2");
        options.put("merge-engine", "partial-update");
        options.put("fields.s1.sequence-group", "a,b");
        options.put("fields.s2,s3.sequence-group", "c");
        t = new CorpusTable(root, "engine_partial_update", partial, options);
        // Few sequence values, so that ties and nulls are frequent.
        t.overrides.put("s1", r -> r.nextInt(4) == 0 ? null : r.nextInt(5));
        t.overrides.put("s2", r -> r.nextInt(4) == 0 ? null : (short) r.nextInt(3));
        t.overrides.put("s3", r -> r.nextInt(3) == 0 ? null : ts(r.nextInt(3)));
        fill(t, random);

        // partial-update without groups: retractions dropped by ignore-delete.
        Schema plain =
                Schema.builder()
                        .column("k", DataTypes.INT().notNull())
                        .column("region", DataTypes.STRING().notNull())
                        .column("a", DataTypes.STRING())
                        .column("b", DataTypes.BIGINT())
                        .column("c", DataTypes.DATE())
                        .primaryKey("k", "region")
                        .partitionKeys("region")
                        .build();
        t =
                new CorpusTable(
                        root,
                        "engine_partial_update_ignore_delete",
                        plain,
                        Map.of("merge-engine", "partial-update", "ignore-delete", "true"));
        fill(t, random);

        // aggregation: every function, retractions (sum, count and last_value retract; the others
        // ignore them), integer wrap-around and decimal overflow.
        Schema agg =
                Schema.builder()
                        .column("k", DataTypes.INT().notNull())
                        .column("sum_tiny", DataTypes.TINYINT())
                        .column("sum_small", DataTypes.SMALLINT())
                        .column("sum_int", DataTypes.INT())
                        .column("sum_big", DataTypes.BIGINT())
                        .column("sum_float", DataTypes.FLOAT())
                        .column("sum_double", DataTypes.DOUBLE())
                        .column("sum_dec", DataTypes.DECIMAL(5, 2))
                        .column("sum_dec38", DataTypes.DECIMAL(38, 10))
                        .column("product_big", DataTypes.BIGINT())
                        .column("product_double", DataTypes.DOUBLE())
                        .column("product_dec", DataTypes.DECIMAL(10, 4))
                        .column("product_dec38", DataTypes.DECIMAL(38, 10))
                        .column("count_int", DataTypes.INT())
                        .column("count_big", DataTypes.BIGINT())
                        .column("min_str", DataTypes.STRING())
                        .column("max_double", DataTypes.DOUBLE())
                        .column("min_ts9", DataTypes.TIMESTAMP(9))
                        .column("max_dec", DataTypes.DECIMAL(19, 0))
                        .column("last_value", DataTypes.BYTES())
                        .column("last_non_null", DataTypes.STRING())
                        .column("first_value", DataTypes.DATE())
                        .column("first_non_null", DataTypes.TIMESTAMP_LTZ(6))
                        .column("bool_and", DataTypes.BOOLEAN())
                        .column("bool_or", DataTypes.BOOLEAN())
                        .column("listagg", DataTypes.STRING())
                        .primaryKey("k")
                        .build();
        options = new HashMap<>();
        options.put("bucket", "2");
        options.put("merge-engine", "aggregation");
        for (String c : schemaColumns(agg)) {
            String function = function(c);
            if (function != null) {
                String f = function.replace('-', '_');
                options.put("fields." + c + ".aggregate-function", function);
                if (!f.equals("sum") && !f.equals("count") && !f.equals("last_value")) {
                    options.put("fields." + c + ".ignore-retract", "true");
                }
            }
        }
        options.put("fields.product_dec.aggregate-function", "PRODUCT");
        options.put("fields.listagg.list-agg-delimiter", " | ");
        t = new CorpusTable(root, "engine_aggregation", agg, options);
        t.overrides.put("listagg", r -> r.nextInt(4) == 0 ? null : "v" + r.nextInt(10));
        t.overrides.put("product_dec", r -> r.nextInt(4) == 0 ? null : dec(r, 4));
        t.overrides.put("sum_dec", r -> r.nextInt(4) == 0 ? null : dec(r, 2));
        fill(t, random);
    }

    /** Three commits, a full compaction, two more commits: logs, bases, logs over bases. */
    private static void fill(CorpusTable t, Random random) throws Exception {
        t.filters = 2;
        // The deduplicate tables cover the ranges between consecutive commits.
        t.pairwiseChanges = false;
        t.randomCommit(random, 80, 25, 4);
        t.randomCommit(random, 80, 25, 4);
        t.randomCommit(random, 60, 25, 4);
        t.compact();
        t.randomCommit(random, 60, 25, 4);
        t.randomCommit(random, 40, 25, 3);
        t.finish();
    }

    private static java.util.List<String> schemaColumns(Schema s) {
        return s.rowType().names();
    }

    /** The function of an aggregation column by its name; null for last_non_null (the default). */
    private static String function(String column) {
        if (column.equals("k") || column.equals("last_non_null")) {
            return null;
        }
        if (column.startsWith("sum_")) {
            return "sum";
        } else if (column.startsWith("product_")) {
            return "product";
        } else if (column.startsWith("count_")) {
            return "count";
        } else if (column.startsWith("min_")) {
            return "min";
        } else if (column.startsWith("max_")) {
            return "max";
        } else if (column.equals("last_value")) {
            return "last-value";
        } else if (column.equals("first_value")) {
            return "first_value";
        } else if (column.equals("first_non_null")) {
            return "first_non_null_value";
        }
        return column; // bool_and, bool_or, listagg
    }

    private static io.weir.data.Timestamp ts(int i) {
        return io.weir.data.Timestamp.ofMillis(1_714_500_000_000L + i * 1000L);
    }

    /** Five digits at this scale: sums overflow DECIMAL(5, 2), products DECIMAL(10, 4). */
    private static java.math.BigDecimal dec(Random r, int scale) {
        return java.math.BigDecimal.valueOf(r.nextInt(199_999) - 99_999, scale);
    }
}
