package io.weir.bench.e2e.gen;

import java.util.ArrayList;
import java.util.List;

/**
 * BENCHMARK.md's source in Flink SQL: a {@code datagen} table of the workload's random columns, and
 * a view over it that derives schema1's {@code item_name} length from its key and sets {@code ts}
 * to {@code NOW()}, as the Paimon cluster benchmark's q1 does.
 */
public final class DatagenSource {
    private static final String TABLE = "default_catalog.default_database.datagen_rows";

    /** schema1's {@code item_name} before the cut to {@code MOD(item_id, 32) + 64} chars. */
    static final int ITEM_NAME_LENGTH = 95;

    /** schema1's metrics: uniform in {@code [0, METRIC_MAX]}. */
    static final long METRIC_MAX = 999_999_999L;

    private DatagenSource() {}

    /**
     * The {@code CREATE TEMPORARY TABLE} and {@code CREATE TEMPORARY VIEW} statements; the view,
     * named {@code view}, has the workload's columns; keys are uniform in {@code [0, keys)}.
     */
    public static List<String> statements(Workload workload, long rows, long keys, String view) {
        String key = workload.keyColumn();
        List<String> raw = new ArrayList<>();
        List<String> options = new ArrayList<>();
        List<String> select = new ArrayList<>();
        options.add(option("connector", "datagen"));
        options.add(option("rows-per-second", "999999999"));
        options.add(option("number-of-rows", String.valueOf(rows)));
        raw.add(key + " BIGINT");
        options.add(option("fields." + key + ".min", "0"));
        options.add(option("fields." + key + ".max", String.valueOf(keys - 1)));
        select.add(key);
        if (workload == Workload.SCHEMA1) {
            raw.add("item_name STRING");
            options.add(option("fields.item_name.length", String.valueOf(ITEM_NAME_LENGTH)));
            select.add("SUBSTR(item_name, 0, MOD(item_id, 32) + 64) AS item_name");
            for (int m = 1; m <= Workload.METRICS; m++) {
                raw.add("metric" + m + " BIGINT");
                options.add(option("fields.metric" + m + ".min", "0"));
                options.add(option("fields.metric" + m + ".max", String.valueOf(METRIC_MAX)));
                select.add("metric" + m);
            }
            select.add("CAST(NOW() AS TIMESTAMP(3)) AS ts");
        } else {
            for (int s = 1; s <= workload.stringColumns(); s++) {
                raw.add("s" + s + " STRING");
                options.add(option("fields.s" + s + ".length", "" + Workload.STRING_LENGTH));
                select.add("s" + s);
            }
        }
        return List.of(
                "CREATE TEMPORARY TABLE "
                        + TABLE
                        + " ("
                        + String.join(", ", raw)
                        + ") WITH ("
                        + String.join(", ", options)
                        + ")",
                "CREATE TEMPORARY VIEW "
                        + view
                        + " AS SELECT "
                        + String.join(", ", select)
                        + " FROM "
                        + TABLE);
    }

    private static String option(String key, String value) {
        return "'" + key + "' = '" + value + "'";
    }
}
