package io.weir.bench.e2e.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The four row shapes of BENCHMARK.md, each with its default row count. Column names and types
 * only: no Flink types here, so the driver can use it too.
 */
public enum Workload {
    /**
     * {@code item_id BIGINT} key, {@code item_name STRING} (64–95 chars), 8 metrics, {@code ts}.
     */
    SCHEMA1(20_000_000L, 0),
    /** {@code id BIGINT} key + 20 {@code STRING} columns of 16 chars. */
    SCHEMA2(4_000_000L, 20),
    /** {@code id BIGINT} key + 50 {@code STRING} columns of 16 chars. */
    SCHEMA3(2_000_000L, 50),
    /** {@code id BIGINT} key + 100 {@code STRING} columns of 16 chars. */
    SCHEMA4(1_000_000L, 100);

    /** Metric columns of schema1. */
    public static final int METRICS = 8;

    /** Length of the string columns of schema2-4. */
    public static final int STRING_LENGTH = 16;

    private final long defaultRows;
    private final int stringColumns;

    Workload(long defaultRows, int stringColumns) {
        this.defaultRows = defaultRows;
        this.stringColumns = stringColumns;
    }

    /** {@code schema1} ... {@code schema4}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The row count of BENCHMARK.md's measurements. */
    public long defaultRows() {
        return defaultRows;
    }

    /** The number of 16-char string columns (0 for schema1). */
    public int stringColumns() {
        return stringColumns;
    }

    /** Keys are uniform in {@code [0, rows / 5)}: each key is written about five times. */
    public static long keys(long rows) {
        return Math.max(1, rows / 5);
    }

    public String keyColumn() {
        return this == SCHEMA1 ? "item_id" : "id";
    }

    /** The columns as {@code name TYPE} in table order; the key first. */
    public List<String> columns() {
        List<String> columns = new ArrayList<>();
        columns.add(keyColumn() + " BIGINT");
        if (this == SCHEMA1) {
            columns.add("item_name STRING");
            for (int i = 1; i <= METRICS; i++) {
                columns.add("metric" + i + " BIGINT");
            }
            columns.add("ts TIMESTAMP(3)");
        } else {
            for (int i = 1; i <= stringColumns; i++) {
                columns.add("s" + i + " STRING");
            }
        }
        return columns;
    }

    /** The column names in table order, comma-separated: what a read of every column selects. */
    public String columnNames() {
        return String.join(
                ", ", columns().stream().map(c -> c.substring(0, c.indexOf(' '))).toList());
    }

    /** The column list of a CREATE TABLE, without the primary key clause. */
    public String columnsDdl() {
        return String.join(", ", columns());
    }

    /** {@code schema1}, {@code 1} or {@code SCHEMA1}. */
    public static Workload parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (Workload w : values()) {
            if (w.id().equals(t) || w.id().equals("schema" + t)) {
                return w;
            }
        }
        throw new IllegalArgumentException(
                "Unknown schema '" + text + "': expected 1, 2, 3, 4 or schema1 ... schema4");
    }
}
